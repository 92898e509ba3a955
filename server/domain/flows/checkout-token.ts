import { createHmac } from 'node:crypto';
import { decodeJwt, errors as joseErrors, jwtVerify } from 'jose';

/** How long a checkout link stays good: the session's own lifetime (DESIGN decision 24). */
export const HANDOFF_TOKEN_TTL_MS = 24 * 3_600_000;

const STANDARD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key a flow's checkout secret stands for, read the way Standard Webhooks libraries read one: a
 * `whsec_` prefix is dropped and standard base64 is decoded, so a store verifying with any of those
 * libraries and the same string agrees with us. A secret that is not base64 is used as its UTF-8 bytes
 * (the libraries' "raw" format). One key signs `fr_token`, our postbacks and the store's callbacks.
 */
export function checkoutKey(secret: string): Uint8Array {
  const body = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret;
  if (body.length > 0 && STANDARD_BASE64.test(body)) return new Uint8Array(Buffer.from(body, 'base64'));
  return new Uint8Array(Buffer.from(secret, 'utf8'));
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/**
 * A compact JWS (HS256) naming the flow and the session, nothing else: `{fid, sid, iat, exp}`. Written by
 * hand because submit signs synchronously (jose only signs asynchronously); any JWT library verifies it.
 */
export function signHandoffToken(secret: string, claims: { flowId: string; sessionId: string }, at: Date): string {
  const iat = Math.floor(at.getTime() / 1000);
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const payload = b64url(JSON.stringify({ fid: claims.flowId, sid: claims.sessionId, iat, exp: iat + HANDOFF_TOKEN_TTL_MS / 1000 }));
  const signature = createHmac('sha256', checkoutKey(secret)).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

/** The session a token names, unverified: only to find which version's secret must verify it. */
export function peekHandoffSession(token: string): { flowId: string; sessionId: string } | null {
  try {
    const claims = decodeJwt(token);
    return typeof claims.fid === 'string' && typeof claims.sid === 'string' ? { flowId: claims.fid, sessionId: claims.sid } : null;
  } catch {
    return null;
  }
}

export type HandoffTokenProblem = 'expired' | 'invalid';

/** Verifies signature (HS256 only) and expiry at `at`; the claims, or why not. */
export async function verifyHandoffToken(secret: string, token: string, at: Date): Promise<{ flowId: string; sessionId: string } | HandoffTokenProblem> {
  try {
    const { payload } = await jwtVerify(token, checkoutKey(secret), { algorithms: ['HS256'], currentDate: at, requiredClaims: ['exp'] });
    if (typeof payload.fid !== 'string' || typeof payload.sid !== 'string') return 'invalid';
    return { flowId: payload.fid, sessionId: payload.sid };
  } catch (err) {
    return err instanceof joseErrors.JWTExpired ? 'expired' : 'invalid';
  }
}
