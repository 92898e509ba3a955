import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { canonicalJson } from '@/server/lib/canonical';

/*
 * Everything certificates need from AUTH_SECRET, derived with HKDF-SHA256 under labels of their own, so the
 * session-token key, the key that wraps the signing keys and each tenant's answers key are unrelated values
 * and nothing extra has to be stored (docs/decisions/intake.md, "The answers hash is keyed per tenant").
 */

const WRAP_INFO = 'fulfillment-rail certificate-signing-key-wrap v1';
const ANSWERS_SALT = 'fulfillment-rail certificate-answers v1';
const ENVELOPE = 'v1';

interface Derived {
  wrapKey: Buffer;
  tenants: Map<string, Buffer>;
}

// Per secret (one per service in the process), so two services with different secrets never share a value.
const derived = new WeakMap<Uint8Array, Derived>();

function forSecret(secret: Uint8Array): Derived {
  let d = derived.get(secret);
  if (!d) {
    d = { wrapKey: Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), WRAP_INFO, 32)), tenants: new Map() };
    derived.set(secret, d);
  }
  return d;
}

/** The tenant's own answers key: HKDF-SHA256(AUTH_SECRET, salt = label, info = tenant id). */
function tenantAnswersKey(secret: Uint8Array, tenantId: string): Buffer {
  const d = forSecret(secret);
  let key = d.tenants.get(tenantId);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, ANSWERS_SALT, tenantId, 32));
    if (d.tenants.size > 50_000) d.tenants.clear();
    d.tenants.set(tenantId, key);
  }
  return key;
}

/**
 * The certificate's `ah`: HMAC-SHA256 (base64url) of the answers' RFC 8785 canonical JSON under the tenant's
 * key. Keyed, because answers are low-entropy PHI that a bare hash would let anyone recover by guessing; per
 * tenant, so equal answers at two clinics cannot be linked.
 */
export function answersHash(secret: Uint8Array, tenantId: string, answers: Record<string, unknown>): string {
  return createHmac('sha256', tenantAnswersKey(secret, tenantId)).update(canonicalJson(answers)).digest('base64url');
}

/**
 * Encrypts a signing key's private half (AES-256-GCM under the wrap key; the kid is the associated data, so a
 * ciphertext moved to another row does not decrypt). Stored as `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export function sealPrivateKey(secret: Uint8Array, kid: string, privateKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', forSecret(secret).wrapKey, iv).setAAD(Buffer.from(kid));
  const body = Buffer.concat([cipher.update(privateKey, 'utf8'), cipher.final()]);
  return [ENVELOPE, iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The inverse of sealPrivateKey; throws when the secret (or the kid) is not the one it was sealed with. */
export function openPrivateKey(secret: Uint8Array, kid: string, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== ENVELOPE || !iv || !tag || body === undefined) throw new Error(`Certificate key ${kid}: unknown storage format`);
  const decipher = createDecipheriv('aes-256-gcm', forSecret(secret).wrapKey, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(kid));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
