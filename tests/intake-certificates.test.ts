import { createPublicKey, sign } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isNull } from 'drizzle-orm';
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateKeys } from '@/db/schema';
import {
  answersHash,
  ensureCertificateKey,
  issueCertificate,
  publishedCertificateKeys,
  rotateCertificateKey,
  verifyCertificate,
  type CertificateSubject,
} from '@/server/domain/intake/certificates';
import { openPrivateKey } from '@/server/domain/intake/certificate-secrets';
import { sha256Hex } from '@/server/lib/crypto';
import { canonicalJson } from '@/server/lib/canonical';
import { processState } from '@/server/lib/process-container';
import { openDatabase } from '@/server/db/client';
import type { Database } from '@/server/db/types';
import { cliWorkspace } from './helpers/cli';
import { createScratchDatabase, startWithTwoClinics, type Clinic, type TestApp } from './helpers/harness';

const JWKS_PATH = '/v1/certificates/jwks.json';
const PATIENT_NAME = 'Philippa Quenby-Marchetti';
const DISTINCT_ANSWER = 'takes-zorblaxin-9137-daily';
const ANSWERS = { height_cm: 170, weight_kg: 92, pregnant: false, meds: DISTINCT_ANSWER, full_name: PATIENT_NAME, goals: ['energy', 'sleep'] };

let app: TestApp;
let a: Clinic;
let b: Clinic;
let n = 0;

beforeAll(async () => {
  ({ app, a, b } = await startWithTwoClinics({ PUBLIC_URL: 'https://rail.clinic.test' }));
});
afterAll(async () => app?.close());

const subject = (tenantId: string, over: Partial<CertificateSubject> = {}): CertificateSubject => ({
  submissionId: `isub_test${++n}`,
  tenantId,
  livemode: false,
  questionnaire: { key: 'weight-management', version: 3, contentHash: 'a'.repeat(64) },
  answers: ANSWERS,
  ...over,
});
const issue = (s: CertificateSubject, now = new Date()) => issueCertificate(app.services.database.db, s, now, app.services.auth);

async function servedJwks(): Promise<JSONWebKeySet> {
  const res = await app.request('GET', JWKS_PATH);
  expect(res.status).toBe(200);
  return res.body;
}
/** jose, given nothing but the served JWKS. */
const verifyServed = async (jws: string) => jwtVerify(jws, createLocalJWKSet(await servedJwks()), { algorithms: ['EdDSA'] });

function tamperPayload(jws: string, change: Record<string, unknown>): string {
  const [h, p, s] = jws.split('.');
  const claims = { ...JSON.parse(Buffer.from(p, 'base64url').toString()), ...change };
  return [h, Buffer.from(JSON.stringify(claims)).toString('base64url'), s].join('.');
}
function tamperSignature(jws: string): string {
  const [h, p, s] = jws.split('.');
  const sig = Buffer.from(s, 'base64url');
  sig[5] ^= 0x01;
  return [h, p, sig.toString('base64url')].join('.');
}

describe('GET /v1/certificates/jwks.json', () => {
  it('publishes the signing key with no credential, cacheable, with X-Request-Id', async () => {
    const res = await app.request('GET', JWKS_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.body.keys).toHaveLength(1);
    const [key] = res.body.keys;
    expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x']);
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(Buffer.from(key.x, 'base64url')).toHaveLength(32);
    // The key was generated at start, once: a second ensure (another process starting) adds none.
    await Promise.all([1, 2, 3].map(() => ensureCertificateKey(app.services.database.db, app.services.auth.secret)));
    expect((await servedJwks()).keys).toEqual(res.body.keys);
  });

  it('is described in the OpenAPI document as a public operation', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    expect(doc.paths['/certificates/jwks.json'].get.security).toEqual([]);
  });
});

describe('eligibility certificates', () => {
  it('verify with jose against the served JWKS alone, with exactly the listed claims and no PHI', async () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const jws = await issue(subject(a.tenantId, { submissionId: 'isub_one' }), now);
    const { payload, protectedHeader } = await verifyServed(jws);
    const [served] = (await servedJwks()).keys;
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: served.kid, typ: 'fr-cert+jwt' });
    expect(payload).toEqual({
      iss: 'https://rail.clinic.test',
      sub: 'isub_one',
      tid: a.tenantId,
      livemode: false,
      iat: now.getTime() / 1000,
      qk: 'weight-management',
      qv: 3,
      qh: 'a'.repeat(64),
      ah: answersHash(app.services.auth.secret, a.tenantId, ANSWERS),
      verdict: 'eligible',
    });
    // Over HTTP as a verifier would do it: jose fetching the JWKS itself.
    const remote = await jwtVerify(jws, createRemoteJWKSet(new URL(app.baseUrl + JWKS_PATH)), { algorithms: ['EdDSA'], issuer: 'https://rail.clinic.test' });
    expect(remote.payload.sub).toBe('isub_one');

    const decoded = JSON.stringify([decodeProtectedHeader(jws), decodeJwt(jws)]);
    for (const phi of [PATIENT_NAME, 'Quenby', DISTINCT_ANSWER, 'zorblaxin']) {
      expect(decoded).not.toContain(phi);
      expect(jws).not.toContain(Buffer.from(phi).toString('base64url'));
    }
    // `ah` is keyed: not the bare hash of the answers, which could be recovered by guessing.
    expect(payload.ah).not.toBe(sha256Hex(canonicalJson(ANSWERS)));
    expect(payload.ah).not.toBe(Buffer.from(sha256Hex(canonicalJson(ANSWERS)), 'hex').toString('base64url'));
  });

  it('carry the clinical-plane hash only when the run came through a flow', async () => {
    const viaFlow = decodeJwt(await issue(subject(a.tenantId, { clinicalPlaneHash: 'c'.repeat(64), livemode: true })));
    expect(viaFlow).toMatchObject({ cph: 'c'.repeat(64), livemode: true });
    expect(Object.keys(viaFlow).sort()).toEqual(['ah', 'cph', 'iat', 'iss', 'livemode', 'qh', 'qk', 'qv', 'sub', 'tid', 'verdict']);
    expect(decodeJwt(await issue(subject(a.tenantId)))).not.toHaveProperty('cph');
  });

  it('reject a tampered payload or signature', async () => {
    const jws = await issue(subject(a.tenantId));
    const jwks = await servedJwks();
    for (const forged of [tamperPayload(jws, { tid: b.tenantId }), tamperPayload(jws, { livemode: true }), tamperSignature(jws), jws.slice(0, -4)]) {
      await expect(verifyServed(forged)).rejects.toThrow();
      expect(await verifyCertificate(forged, jwks)).toMatchObject({ valid: false });
    }
    expect(await verifyCertificate(jws, jwks)).toMatchObject({ valid: true, claims: { tid: a.tenantId } });
    expect(await verifyCertificate('not.a.jws', jwks)).toMatchObject({ valid: false });
  });

  it('reject a token signed by a key that is not published', async () => {
    const jws = await issue(subject(a.tenantId));
    const [h, p] = jws.split('.');
    const { generateKeyPairSync } = await import('node:crypto');
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const forged = `${h}.${p}.${sign(null, Buffer.from(`${h}.${p}`), stranger).toString('base64url')}`;
    expect(await verifyCertificate(forged, await servedJwks())).toMatchObject({ valid: false });
  });

  it('hash identical answers differently per tenant, and equally whatever the key order', async () => {
    const reordered = Object.fromEntries(Object.entries(ANSWERS).reverse());
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(ANSWERS));
    const ahA = decodeJwt(await issue(subject(a.tenantId))).ah;
    const ahA2 = decodeJwt(await issue(subject(a.tenantId, { answers: reordered }))).ah;
    const ahB = decodeJwt(await issue(subject(b.tenantId))).ah;
    const ahOther = decodeJwt(await issue(subject(a.tenantId, { answers: { ...ANSWERS, weight_kg: 93 } }))).ah;
    expect(ahA2).toBe(ahA);
    expect(ahB).not.toBe(ahA);
    expect(ahOther).not.toBe(ahA);
  });
});

describe('signing keys', () => {
  it('are stored encrypted: the column holds no key material and opens only under the right AUTH_SECRET', async () => {
    const rows = await app.services.database.db.select().from(certificateKeys);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const d = openPrivateKey(app.services.auth.secret, row.kid, row.privateKeyEncrypted);
      const seed = Buffer.from(d, 'base64url');
      expect(seed).toHaveLength(32);
      for (const form of [d, seed.toString('hex'), seed.toString('base64')]) expect(row.privateKeyEncrypted).not.toContain(form);
      expect(JSON.stringify(row.publicJwk)).not.toContain(d);
      // The decrypted half belongs to the published public half.
      const publicX = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: row.publicJwk.x, d }, format: 'jwk' }).export({ format: 'jwk' }).x;
      expect(publicX).toBe(row.publicJwk.x);
      expect(() => openPrivateKey(new TextEncoder().encode('another-auth-secret-of-32-characters!'), row.kid, row.privateKeyEncrypted)).toThrow();
      expect(() => openPrivateKey(app.services.auth.secret, 'some-other-kid', row.privateKeyEncrypted)).toThrow();
    }
  });

  it('are generated once when several processes start at once on one empty database', async () => {
    const scratch = process.env.DATABASE_URL ? await createScratchDatabase(process.env.DATABASE_URL) : null;
    // Two handles (two pools on PostgreSQL), as two processes starting together would hold.
    const handles = scratch
      ? [await openDatabase({ databaseUrl: scratch.url }), await openDatabase({ databaseUrl: scratch.url })]
      : [await openDatabase({ pgliteDataDir: 'memory://' })];
    try {
      await handles[0].migrate();
      const secret = app.services.auth.secret;
      const starts = await Promise.all(handles.flatMap((h) => [1, 2, 3].map(() => ensureCertificateKey(h.db, secret))));
      const rows = await handles[0].db.select().from(certificateKeys);
      expect(rows).toHaveLength(1);
      expect(starts.filter((s) => s.created)).toHaveLength(1);
      expect(new Set(starts.map((s) => s.kid))).toEqual(new Set([rows[0].kid]));
      expect(starts.every((s) => s.usable)).toBe(true);
      // Under another AUTH_SECRET the key is reported unusable, and issuing says why instead of signing.
      const other = new TextEncoder().encode('a-different-auth-secret-0123456789abcdef');
      const unusable = await ensureCertificateKey(handles[0].db, other);
      expect(unusable).toMatchObject({ created: false, usable: false });
      // A process that has not yet imported the key (its cache is process-wide) cannot sign under that secret.
      processState('certificate-signers', () => new Map<string, unknown>()).delete(rows[0].kid);
      const signer = { secret: other, publicUrl: 'https://rail.clinic.test' };
      await expect(issueCertificate(handles[0].db, subject(a.tenantId), new Date(), signer)).rejects.toThrow(/cannot be decrypted with this AUTH_SECRET/);
      expect(decodeProtectedHeader(await issueCertificate(handles[0].db, subject(a.tenantId), new Date(), app.services.auth)).kid).toBe(rows[0].kid);
    } finally {
      for (const h of handles) await h.close();
      await scratch?.drop();
    }
  });

  it('rotate: both keys published, new certificates use the new kid, old ones still verify', async () => {
    const before = await servedJwks();
    const old = await issue(subject(a.tenantId));
    const rotated = await rotateCertificateKey(app.services.database.db, app.services.auth.secret);
    expect(rotated.retired).toEqual(before.keys.map((k) => k.kid));

    const after = await servedJwks();
    expect(after.keys.map((k) => k.kid)).toEqual([rotated.kid, ...before.keys.map((k) => k.kid)]);
    const fresh = await issue(subject(a.tenantId));
    expect(decodeProtectedHeader(fresh).kid).toBe(rotated.kid);
    expect(decodeProtectedHeader(old).kid).toBe(before.keys[0].kid);
    for (const jws of [old, fresh]) expect((await verifyServed(jws)).payload.tid).toBe(a.tenantId);
    // Exactly one key signs; the retired one stays published.
    const active = await app.services.database.db.select({ kid: certificateKeys.kid }).from(certificateKeys).where(isNull(certificateKeys.retiredAt));
    expect(active).toEqual([{ kid: rotated.kid }]);
  });
});

describe('npm run cli -- certs:rotate / certs:verify', () => {
  const SECRET = 'cli-auth-secret-for-certificates-0123456789';
  const ws = cliWorkspace('fr-certs-cli-', { AUTH_SECRET: SECRET });
  const { cli } = ws;

  /** The CLI's database, opened here between CLI runs (never while one runs: PGlite is single-process). */
  async function withCliDatabase<T>(fn: (db: Database['db']) => Promise<T>): Promise<T> {
    const database = await openDatabase({ databaseUrl: ws.env.DATABASE_URL, pgliteDataDir: ws.dataDir });
    try {
      return await fn(database.db);
    } finally {
      await database.close();
    }
  }

  it('rotates keys and verifies certificates against the database, a JWKS file or a JWKS URL', async () => {
    const first = await cli('certs:rotate', '--json');
    expect(first.code, first.stderr).toBe(0);
    const { kid: firstKid, retired } = JSON.parse(first.stdout);
    expect(retired).toEqual([]);
    const second = await cli('certs:rotate');
    expect(second.code).toBe(0);
    const secondKid = second.stdout.match(/New certificate signing key (\S+) \(retired for signing: (\S+)\)/);
    expect(secondKid?.[2]).toBe(firstKid);

    const deps = { secret: new TextEncoder().encode(SECRET), publicUrl: 'https://cli.clinic.test' };
    const { jws, jwks } = await withCliDatabase(async (db) => ({
      jws: await issueCertificate(db, subject('ten_cli', { submissionId: 'isub_cli' }), new Date(), deps),
      jwks: await publishedCertificateKeys(db),
    }));
    expect(decodeProtectedHeader(jws).kid).toBe(secondKid?.[1]);
    expect(jwks.keys.map((k) => k.kid)).toEqual([secondKid?.[1], firstKid]);

    const valid = await cli('certs:verify', jws, '--json');
    expect(valid.code, valid.stderr).toBe(0);
    expect(JSON.parse(valid.stdout)).toMatchObject({ valid: true, kid: secondKid?.[1], claims: { sub: 'isub_cli', tid: 'ten_cli', verdict: 'eligible' } });
    const human = await cli('certs:verify', jws);
    expect(human.stdout).toContain('"sub": "isub_cli"');
    expect(human.stdout).toMatch(/\nvalid \(key /);

    // A forged token's claims are never printed, in either form (issue 34 item 11).
    const tampered = await cli('certs:verify', tamperPayload(jws, { tid: 'ten_other' }), '--json');
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.stdout)).toEqual({ valid: false, reason: expect.any(String) });
    expect(tampered.stdout + tampered.stderr).not.toContain('ten_other');
    const forgedHuman = await cli('certs:verify', tamperPayload(jws, { tid: 'ten_other' }));
    expect(forgedHuman.code).toBe(1);
    expect(forgedHuman.stdout + forgedHuman.stderr).not.toMatch(/ten_other|isub_cli/);
    const badSignature = await cli('certs:verify', tamperSignature(jws));
    expect(badSignature.code).toBe(1);
    expect(badSignature.stderr).toMatch(/^invalid: /m);
    expect(badSignature.stdout + badSignature.stderr).not.toContain('isub_cli');

    // Offline, from a published JWKS saved to a file: no database is opened (nor locked).
    const file = path.join(ws.dataDir, 'jwks.json');
    fs.writeFileSync(file, JSON.stringify(jwks));
    const fromFile = await cli('certs:verify', jws, '--jwks', file, '--json');
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect((await cli('certs:verify', tamperSignature(jws), '--jwks', file)).code).toBe(1);

    // A running service's JWKS URL: its certificate verifies there, and not against this database's keys.
    const served = await issue(subject(a.tenantId, { submissionId: 'isub_served' }));
    const viaUrl = await cli('certs:verify', served, '--jwks-url', app.baseUrl + JWKS_PATH, '--json');
    expect(viaUrl.code, viaUrl.stderr).toBe(0);
    expect(JSON.parse(viaUrl.stdout).claims.sub).toBe('isub_served');
    expect((await cli('certs:verify', served, '--json')).code).toBe(1);
  }, 180_000);

  it('rejects bad arguments with exit code 2', async () => {
    expect((await cli('certs:verify')).code).toBe(2);
    expect((await cli('certs:verify', 'a.b.c', 'extra')).code).toBe(2);
    expect((await cli('certs:verify', 'a.b.c', '--jwks', 'x', '--jwks-url', 'http://localhost/x')).code).toBe(2);
    expect((await cli('certs:verify', 'a.b.c', '--jwks-url', 'not a url')).code).toBe(2);
    expect((await cli('certs:rotate', 'now')).code).toBe(2);
    const notJwks = path.join(ws.dataDir, 'not-jwks.json');
    fs.writeFileSync(notJwks, '{"kty":"OKP"}');
    const refused = await cli('certs:verify', 'a.b.c', '--jwks', notJwks);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('is not a JWKS');
  }, 60_000);
});
