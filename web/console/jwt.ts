import { decode, encode, type JWT } from 'next-auth/jwt';
import { processServices } from '@/server/api/process-services';
import { forwardedHttps } from '@/server/lib/forwarded-https';

declare module 'next-auth/jwt' {
  interface JWT {
    accessToken?: string;
    refreshToken?: string;
    /** Epoch ms at which the access token lapses. */
    expiresAt?: number;
    /** Epoch ms of the sign-in: the console session ends SESSION_MAX_AGE_S after it, whatever the activity. */
    signedInAt?: number;
    error?: 'RefreshFailed';
  }
}

declare module 'next-auth' {
  interface Session {
    error?: 'RefreshFailed';
  }
}

/** A console session lasts a working day at most; then the person signs in again (with their second factor). */
export const SESSION_MAX_AGE_S = 12 * 3600;

/**
 * Behind https every console cookie is `Secure` (and named `__Secure-…`). Either URL saying https is enough:
 * an operator may set NEXTAUTH_URL apart from PUBLIC_URL, and a cookie must never fall back to plain http. So is
 * a trusted proxy's X-Forwarded-Proto: https for the request in hand (TRUST_PROXY).
 */
export const secureCookies = () =>
  forwardedHttps() || [process.env.PUBLIC_URL, process.env.NEXTAUTH_URL].some((u) => u?.startsWith('https://') ?? false);
export const sessionCookieName = () => `${secureCookies() ? '__Secure-' : ''}next-auth.session-token`;

/** next-auth splits a large cookie into `name.0`, `name.1`, …; reassemble either form. */
export function readSessionCookie(all: { name: string; value: string }[], name = sessionCookieName()): string | undefined {
  const whole = all.find((c) => c.name === name);
  if (whole) return whole.value;
  const chunks = all
    .filter((c) => c.name.startsWith(`${name}.`))
    .sort((a, b) => Number(a.name.slice(name.length + 1)) - Number(b.name.slice(name.length + 1)));
  return chunks.length ? chunks.map((c) => c.value).join('') : undefined;
}

/** The key of the session cookie and of the forward proof: the auth secret the custom server resolved from its config. */
export const consoleSecret = () => processServices().auth.consoleSecret;
const secret = consoleSecret;

export async function decodeSession(value: string | undefined): Promise<JWT | null> {
  if (!value || !secret()) return null;
  return decode({ token: value, secret: secret() }).catch(() => null);
}

export const encodeSession = (token: JWT) => encode({ token, secret: secret(), maxAge: SESSION_MAX_AGE_S });
