import type { JWT } from 'next-auth/jwt';
import { processState } from '@/server/lib/process-container';
import { ApiCallError, callApi } from './api';
import { SESSION_MAX_AGE_S } from './jwt';
import type { SessionTokens } from './types';

// Refresh a minute early, so a page never starts rendering with an access token about to lapse.
const EARLY_MS = 60_000;
// Requests still carrying the previous cookie get the same rotation for this long (see rotate()).
const SHARE_MS = 60_000;

interface Flight {
  at: number;
  tokens: Promise<SessionTokens>;
}

// In the process container: the proxy and the next-auth route are separate bundles (module instances) of one process.
const flights = processState('console-refresh', () => new Map<string, Flight>());

export const expiryOf = (tokens: SessionTokens) => Date.now() + tokens.expiresIn * 1000;

export const needsRefresh = (token: JWT) => typeof token.expiresAt === 'number' && Date.now() >= token.expiresAt - EARLY_MS;

/**
 * Refresh tokens are single-use and a reused one revokes the whole session family. A page load can fire
 * several requests with the same cookie at once (document, prefetches), so each refresh token is
 * rotated exactly once and every request presenting it shares that answer.
 */
function rotate(refreshToken: string): Promise<SessionTokens> {
  const now = Date.now();
  for (const [key, flight] of flights) if (now - flight.at > SHARE_MS) flights.delete(key);
  const existing = flights.get(refreshToken);
  if (existing) return existing.tokens;
  const tokens = callApi<SessionTokens>('/auth/refresh', { body: { refreshToken } });
  flights.set(refreshToken, { at: now, tokens });
  // A network failure proves nothing about the token: let the next request try again.
  tokens.catch((e) => {
    if (!(e instanceof ApiCallError)) flights.delete(refreshToken);
  });
  return tokens;
}

const ended = (token: JWT): JWT => ({ ...token, accessToken: undefined, refreshToken: undefined, error: 'RefreshFailed' });

/** The jwt callback's refresh: a new access token when the current one is near expiry. */
export async function refreshed(token: JWT): Promise<JWT> {
  if (!token.refreshToken || !needsRefresh(token)) return token;
  if (typeof token.signedInAt === 'number' && Date.now() - token.signedInAt > SESSION_MAX_AGE_S * 1000) return ended(token);
  try {
    const fresh = await rotate(token.refreshToken);
    return { ...token, accessToken: fresh.accessToken, refreshToken: fresh.refreshToken, expiresAt: expiryOf(fresh), error: undefined };
  } catch (e) {
    // The API said no (revoked, reused, user deactivated): the session is over. Otherwise keep it for a retry.
    return e instanceof ApiCallError ? ended(token) : token;
  }
}

/** Sign-out: ends the API session's refresh-token family, so the tokens in the cookie are dead everywhere. */
export async function endApiSession(token: JWT): Promise<void> {
  const current = await refreshed(token);
  if (!current.accessToken || !current.refreshToken) return;
  await callApi('/auth/logout', { token: current.accessToken, body: { refreshToken: current.refreshToken } }).catch(() => undefined);
}
