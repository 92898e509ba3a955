import { authenticateSession } from '@/server/domain/auth/authenticate-user';
import { looksLikeJwt } from '@/server/domain/auth/tokens';
import { PATIENT_TOKEN } from '@/server/domain/patients/sign-in/patient-sessions';
import { authenticateApiKey } from '@/server/domain/developer/authenticate-key';
import { errors } from '@/server/lib/errors';
import type { Principal } from '@/server/domain/auth/principal';
import type { Context } from '../context';
import { enforceRateDecision } from './rate-limit';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Resolves `Authorization: Bearer <API key | session JWT>` to a principal; anything missing or wrong is a 401. */
export async function resolvePrincipal(ctx: Context): Promise<Principal> {
  const header = ctx.req.headers.authorization;
  if (!header) throw errors.unauthenticated('No API key provided. Pass it as "Authorization: Bearer <key>".', 'missing_api_key');
  const match = BEARER.exec(header);
  if (!match) throw errors.unauthenticated('Malformed Authorization header. Expected "Bearer <key>".', 'malformed_authorization');
  const token = match[1];
  // A patient's portal session reaches only /v1/patient/… (DESIGN decision 40): never a clinic's data.
  if (PATIENT_TOKEN.test(token)) throw errors.unauthenticated("A patient's portal session cannot call the clinic's API; use an API key or a console session.", 'patient_session_not_allowed');
  return looksLikeJwt(token)
    ? authenticateSession(ctx.services.database.db, ctx.services.auth.secret, token, headerValue(ctx.req.headers['x-mode']))
    : authenticateApiKey(ctx.services.database.db, token);
}

/**
 * The principal of the request, within its request budget (429 with `RateLimit-*` headers once it is spent).
 * Always the two together, in one middleware level (server/api/procedures.ts says why).
 */
export async function limitedPrincipal(ctx: Context): Promise<Principal> {
  const principal = await resolvePrincipal(ctx);
  enforceRateDecision(ctx.state, await ctx.services.rateLimiter.consume(principal.rateLimitKey, principal.livemode));
  return principal;
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
