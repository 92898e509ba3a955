import { jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';

const ISSUER = 'fulfillment-rail';
export const ACCESS_TOKEN_TTL_S = 15 * 60;
const MFA_TOKEN_TTL_S = 5 * 60;

type Purpose = 'access' | 'mfa';

export interface AccessClaims {
  userId: string;
  tenantId: string | null;
  issuedAtMs?: number;
}

/** Claims as a verified token carries them, with its expiry. */
type VerifiedClaims = AccessClaims & { expiresAtMs: number };

// jose imports a raw secret into WebCrypto on every call; every request verifies a token, so import it once.
const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])));
  return key;
}

async function sign(secret: Uint8Array, purpose: Purpose, claims: AccessClaims, ttl: number, issuedMs = now().getTime()): Promise<string> {
  const iat = Math.floor(issuedMs / 1000);
  // Millisecond issue time, so "sessions valid after" cut-offs are exact within the same second.
  return new SignJWT({ tid: claims.tenantId, pur: purpose, iam: issuedMs })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(purpose)
    .setSubject(claims.userId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttl)
    .sign(await hmacKey(secret));
}

async function verify(secret: Uint8Array, purpose: Purpose, token: string): Promise<VerifiedClaims> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      issuer: ISSUER,
      audience: purpose,
      algorithms: ['HS256'],
      currentDate: now(),
    });
    if (payload.pur !== purpose || typeof payload.sub !== 'string') throw new Error('wrong purpose');
    return { userId: payload.sub, tenantId: (payload.tid as string | null) ?? null, issuedAtMs: Number(payload.iam), expiresAtMs: Number(payload.exp) * 1000 };
  } catch {
    throw purpose === 'access'
      ? errors.unauthenticated('The session token is invalid or expired. Refresh it or sign in again.', 'invalid_session')
      : errors.unauthenticated('The MFA token is invalid or expired. Sign in again.', 'invalid_mfa_token');
  }
}

/** With `issuedAt`, signing the same claims again gives the same token (HS256 is deterministic). */
export const signAccessToken = (secret: Uint8Array, c: AccessClaims, issuedAt?: Date) => sign(secret, 'access', c, ACCESS_TOKEN_TTL_S, issuedAt?.getTime());
/**
 * Access tokens whose signature this process has checked, per secret, with their expiry. A session sends
 * the same token with every request for 15 minutes and the check's outcome cannot change until it expires,
 * so it is made once: each request saves a WebCrypto call (a trip through libuv's thread pool). Expiry is
 * checked against the clock on every use; revocation never relied on the token (the user is re-read).
 */
const verifiedTokens = new WeakMap<Uint8Array, LRUCache<string, VerifiedClaims>>();

export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<AccessClaims> {
  let verified = verifiedTokens.get(secret);
  if (!verified) verifiedTokens.set(secret, (verified = new LRUCache({ max: 10_000 })));
  const known = verified.get(token);
  if (known && known.expiresAtMs > now().getTime()) return known;
  const claims = await verify(secret, 'access', token);
  verified.set(token, claims);
  return claims;
}
export const signMfaToken = (secret: Uint8Array, c: AccessClaims) => sign(secret, 'mfa', c, MFA_TOKEN_TTL_S);
export const verifyMfaToken = (secret: Uint8Array, token: string) => verify(secret, 'mfa', token);

export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
