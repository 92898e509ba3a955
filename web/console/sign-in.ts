import type { User } from 'next-auth';
import { FORWARDED_CLIENT_IP } from '@/server/api/client-ip';
import { logger } from '@/server/lib/logger';
import { ApiCallError, callApi } from './api';
import { expiryOf } from './refresh';
import { mfaRequiredError } from './sign-in-errors';
import type { ConsoleMe, LoginAnswer, SessionTokens } from './types';

/** A failure the sign-in page shows as is: the API's own words (never PHI) or the MFA_REQUIRED marker. */
class SignInError extends Error {}

/** What a Credentials provider returns: the person, and the API session next-auth keeps in its JWT. */
export interface ConsoleUser extends User {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
}

type RequestHeaders = Record<string, unknown> | undefined;

/** The custom server stamps the browser's address on every request it hands to Next.js. */
export function clientIpOf(headers: RequestHeaders): string | undefined {
  const value = headers?.[FORWARDED_CLIENT_IP];
  return typeof value === 'string' && value ? value : undefined;
}

async function toUser(tokens: SessionTokens): Promise<ConsoleUser> {
  const me = await callApi<ConsoleMe>('/auth/me', { token: tokens.accessToken });
  if (!me.user) throw new SignInError('This sign-in is not a person’s session.');
  return { id: me.user.id, email: me.user.email, name: me.user.name, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresAt: expiryOf(tokens) };
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof SignInError) throw e;
    if (e instanceof ApiCallError && e.status === 429) throw new SignInError('Too many sign-in attempts. Wait a few minutes, then try again.');
    if (e instanceof ApiCallError) throw new SignInError(e.message);
    logger.error({ err: e }, 'console sign-in: the API could not be reached');
    throw new SignInError('Sign-in is unavailable right now. Try again in a moment.');
  }
}

/**
 * A login answer becomes a session: directly, or through the TOTP step when the account has two-factor
 * authentication. Without a code the provider fails with MFA_REQUIRED so the page asks for one.
 */
async function finish(answer: LoginAnswer, code: string | undefined, ip: string | undefined, carryMfaToken: boolean) {
  if (!('mfaRequired' in answer)) return toUser(answer);
  if (!code) throw new SignInError(mfaRequiredError(carryMfaToken ? answer.mfaToken : undefined));
  return completeMfa(answer.mfaToken, code, ip);
}

async function completeMfa(mfaToken: string, code: string, ip: string | undefined) {
  const tokens = await callApi<SessionTokens>('/auth/mfa/verify', { body: { mfaToken, code: code.trim() }, clientIp: ip });
  return toUser(tokens);
}

export function passwordSignIn(c: { email?: string; password?: string; code?: string }, headers: RequestHeaders) {
  const ip = clientIpOf(headers);
  return guarded(async () => {
    if (!c.email || !c.password) throw new SignInError('Enter your e-mail address and password.');
    const answer = await callApi<LoginAnswer>('/auth/login', { body: { email: c.email, password: c.password }, clientIp: ip });
    return finish(answer, c.code || undefined, ip, false);
  });
}

/** The link's token works once; an MFA challenge therefore travels back with its token for the code step. */
export function magicLinkSignIn(c: { token?: string; mfaToken?: string; code?: string }, headers: RequestHeaders) {
  const ip = clientIpOf(headers);
  return guarded(async () => {
    if (c.mfaToken && c.code) return completeMfa(c.mfaToken, c.code, ip);
    if (!c.token) throw new SignInError('This sign-in link is incomplete. Request a new one.');
    const answer = await callApi<LoginAnswer>('/auth/magic-link/verify', { body: { token: c.token }, clientIp: ip });
    return finish(answer, c.code || undefined, ip, true);
  });
}

export function inviteSignIn(c: { token?: string; password?: string }) {
  return guarded(async () => {
    if (!c.token || !c.password) throw new SignInError('Choose a password to continue.');
    return toUser(await callApi<SessionTokens>('/auth/accept-invite', { body: { token: c.token, password: c.password } }));
  });
}
