import { jwtVerify, SignJWT } from 'jose';
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

// jose imports a raw secret into WebCrypto on every call; every request verifies a token, so import it once.
const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>();
function hmacKey(secret: Uint8Array): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = crypto.subtle.importKey('raw', secret as Uint8Array<ArrayBuffer>, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])));
  return key;
}

async function sign(secret: Uint8Array, purpose: Purpose, claims: AccessClaims, ttl: number): Promise<string> {
  const issuedMs = now().getTime();
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

async function verify(secret: Uint8Array, purpose: Purpose, token: string): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, await hmacKey(secret), {
      issuer: ISSUER,
      audience: purpose,
      algorithms: ['HS256'],
      currentDate: now(),
    });
    if (payload.pur !== purpose || typeof payload.sub !== 'string') throw new Error('wrong purpose');
    return { userId: payload.sub, tenantId: (payload.tid as string | null) ?? null, issuedAtMs: Number(payload.iam) };
  } catch {
    throw purpose === 'access'
      ? errors.unauthenticated('The session token is invalid or expired. Refresh it or sign in again.', 'invalid_session')
      : errors.unauthenticated('The MFA token is invalid or expired. Sign in again.', 'invalid_mfa_token');
  }
}

export const signAccessToken = (secret: Uint8Array, c: AccessClaims) => sign(secret, 'access', c, ACCESS_TOKEN_TTL_S);
export const verifyAccessToken = (secret: Uint8Array, token: string) => verify(secret, 'access', token);
export const signMfaToken = (secret: Uint8Array, c: AccessClaims) => sign(secret, 'mfa', c, MFA_TOKEN_TTL_S);
export const verifyMfaToken = (secret: Uint8Array, token: string) => verify(secret, 'mfa', token);

export const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
