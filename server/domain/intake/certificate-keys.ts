import { generateKeyPairSync } from 'node:crypto';
import { and, desc, isNull, ne, sql } from 'drizzle-orm';
import { calculateJwkThumbprint, importJWK, type CryptoKey } from 'jose';
import { certificateKeys } from '@/db/schema';
import { prepared } from '@/server/db/prepared';
import type { Queryable } from '@/server/db/types';
import { processState } from '@/server/lib/process-container';
import { openPrivateKey, sealPrivateKey } from './certificate-secrets';

/** A published verification key: exactly the members a JWKS consumer needs. */
// A type, not an interface: it must fit the jsonb column's Record<string, string>.
export type CertificatePublicJwk = {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
};
export interface CertificateJwks {
  keys: CertificatePublicJwk[];
}

// Start-up, rotation and first use serialise on this (PostgreSQL advisory lock; PGlite has one connection).
const KEY_LOCK = sql`select pg_advisory_xact_lock(hashtext('fulfillment-rail:certificate_keys'))`;

// Imported private keys by kid (a kid is the thumbprint of its public key, so one kid is one key wherever it
// is read). In the process container: Next.js's copy of this module must not import and decrypt again.
const signers = processState('certificate-signers', () => new Map<string, CryptoKey>());

async function newKeyRow(secret: Uint8Array, now: Date) {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  const { d } = privateKey.export({ format: 'jwk' });
  const kid = await calculateJwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: x! }, 'sha256');
  const publicJwk: CertificatePublicJwk = { kty: 'OKP', crv: 'Ed25519', x: x!, kid, alg: 'EdDSA', use: 'sig' };
  signers.set(kid, (await importJWK({ ...publicJwk, d }, 'EdDSA')) as CryptoKey);
  return { kid, publicJwk, privateKeyEncrypted: sealPrivateKey(secret, kid, d!), createdAt: now };
}

// Rendered once (server/db/prepared.ts): every eligible submission reads it.
const activeStatement = prepared((q: Queryable) =>
  q
    .select({ kid: certificateKeys.kid, publicJwk: certificateKeys.publicJwk, sealed: certificateKeys.privateKeyEncrypted })
    .from(certificateKeys)
    .where(isNull(certificateKeys.retiredAt))
    .orderBy(desc(certificateKeys.createdAt), desc(certificateKeys.kid))
    .limit(1),
);
const active = (q: Queryable) => activeStatement.execute(q, {});

/**
 * The signing key exists (generated at first start; DESIGN decision 20). Idempotent, and safe when several
 * processes start at once on one PostgreSQL: they take the same advisory lock, so exactly one generates.
 * `usable` says whether this AUTH_SECRET decrypts the current key (false after AUTH_SECRET changed).
 */
export async function ensureCertificateKey(q: Queryable, secret: Uint8Array, now = new Date()) {
  return q.transaction(async (tx) => {
    await tx.execute(KEY_LOCK);
    const [current] = await active(tx);
    if (!current) {
      const row = await newKeyRow(secret, now);
      await tx.insert(certificateKeys).values(row);
      return { kid: row.kid, created: true, usable: true };
    }
    // Decrypted here whatever this process has cached: a changed AUTH_SECRET shows at start, not at first use.
    const usable = unseal(secret, current) !== undefined;
    return { kid: current.kid, created: false, usable };
  });
}

function unseal(secret: Uint8Array, row: { kid: string; sealed: string }): string | undefined {
  try {
    return openPrivateKey(secret, row.kid, row.sealed);
  } catch {
    return undefined;
  }
}

/**
 * Adds a new signing key and retires the others for signing. Retired keys stay published in the JWKS for
 * good: every certificate they signed must keep verifying.
 */
export async function rotateCertificateKey(q: Queryable, secret: Uint8Array, now = new Date()) {
  return q.transaction(async (tx) => {
    await tx.execute(KEY_LOCK);
    const row = await newKeyRow(secret, now);
    await tx.insert(certificateKeys).values(row);
    rotations++;
    const retired = await tx
      .update(certificateKeys)
      .set({ retiredAt: now })
      .where(and(isNull(certificateKeys.retiredAt), ne(certificateKeys.kid, row.kid)))
      .returning({ kid: certificateKeys.kid });
    return { kid: row.kid, retired: retired.map((r) => r.kid) };
  });
}

/*
 * The signing key in use, per service (its deps object: one database, one AUTH_SECRET), so that a submission
 * reads no key row (issue 35). A kid names one key for good, so only *which* kid signs can change: a rotation
 * in this process drops the entries at once; one in another process (the CLI) is seen within ACTIVE_TTL_MS,
 * during which the retired key may still sign, and what it signs keeps verifying (retired keys stay published).
 */
const ACTIVE_TTL_MS = 60_000;
const activeBySigner = new WeakMap<object, { kid: string; key: CryptoKey; until: number; rotation: number }>();
// Rotations made by this process: an entry cached before the last one is stale.
let rotations = 0;

/**
 * The newest key not retired, ready to sign. With `cacheFor` (the service's certificate deps) the answer is
 * kept for ACTIVE_TTL_MS; without, one small query per certificate. The import is cached either way.
 */
export async function signingKey(q: Queryable, secret: Uint8Array, cacheFor?: object): Promise<{ kid: string; key: CryptoKey }> {
  const hit = cacheFor && activeBySigner.get(cacheFor);
  if (hit && hit.until > Date.now() && hit.rotation === rotations) return hit;
  const found = await readSigningKey(q, secret);
  if (cacheFor) activeBySigner.set(cacheFor, { ...found, until: Date.now() + ACTIVE_TTL_MS, rotation: rotations });
  return found;
}

async function readSigningKey(q: Queryable, secret: Uint8Array): Promise<{ kid: string; key: CryptoKey }> {
  let [current] = await active(q);
  if (!current) {
    await ensureCertificateKey(q, secret);
    [current] = await active(q);
  }
  const cached = signers.get(current.kid);
  if (cached) return { kid: current.kid, key: cached };
  const d = unseal(secret, current);
  if (d === undefined) {
    throw new Error(
      `The certificate signing key ${current.kid} cannot be decrypted with this AUTH_SECRET (was it changed?). ` +
        'Restore the previous AUTH_SECRET, or run `npm run cli -- certs:rotate` to add a key under the current one.',
    );
  }
  const key = (await importJWK({ ...current.publicJwk, d }, 'EdDSA')) as CryptoKey;
  signers.set(current.kid, key);
  return { kid: current.kid, key };
}

/** Every key ever used to sign, newest first: the document served at /v1/certificates/jwks.json. */
export async function publishedCertificateKeys(q: Queryable): Promise<CertificateJwks> {
  const rows = await q
    .select({ publicJwk: certificateKeys.publicJwk })
    .from(certificateKeys)
    .orderBy(desc(certificateKeys.createdAt), desc(certificateKeys.kid));
  return { keys: rows.map((r) => r.publicJwk as unknown as CertificatePublicJwk) };
}
