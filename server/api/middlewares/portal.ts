import { originAllowed } from '@/server/domain/embed/origins';
import { findPortalKey, type PortalKey } from '@/server/domain/patients/portal-key';
import { authenticatePatientToken, PATIENT_TOKEN, type PatientPrincipal } from '@/server/domain/patients/sign-in/patient-sessions';
import { AppError, errors } from '@/server/lib/errors';
import { clientIp } from '../client-ip';
import type { Context } from '../context';
import { enforceRateDecision } from './rate-limit';

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The portal's public paths (`/v1/public/patients/{embedKey}/…`, DESIGN decision 39): within the public paths'
 * budget per client address, the key the path names, or null when it is unknown or revoked (sign-in answers
 * such a key exactly as it answers a patient who is not found). A live key admits only its allowed origins and
 * the service's own (403 `origin_not_allowed`), as every embed-key path does.
 */
export async function resolvePortalKey(ctx: Context, getRawInput: () => Promise<unknown>): Promise<{ portalKey: PortalKey | null; clientAddress: string }> {
  const raw = (await getRawInput()) as { embedKey?: unknown } | undefined;
  const keyId = typeof raw?.embedKey === 'string' ? raw.embedKey : '';
  const { auth, database, embedRateLimiter } = ctx.services;
  const clientAddress = clientIp(ctx.req, auth.consoleSecret);
  enforceRateDecision(ctx.state, await embedRateLimiter.consume(`portal:${clientAddress}`, true));
  const portalKey = await findPortalKey(database.db, keyId);
  if (portalKey?.livemode && !originAllowed({ origin: header(ctx.req.headers.origin), referer: header(ctx.req.headers.referer) }, portalKey.allowedOrigins, auth.publicUrl)) {
    throw new AppError('permission_error', 'origin_not_allowed', 403, "This page's origin is not among the embed key's allowed origins; add it to the key in the console.");
  }
  return { portalKey, clientAddress };
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The patient endpoints (`/v1/patient/…`, DESIGN decision 40) take a patient's session token only: no credential,
 * or a clinic's API key or console session, is a 401 that says what is needed. The session's own request budget
 * applies (the live or sandbox rate of an API key).
 */
export async function patientPrincipal(ctx: Context): Promise<PatientPrincipal> {
  const match = BEARER.exec(header(ctx.req.headers.authorization) ?? '');
  if (!match || !PATIENT_TOKEN.test(match[1])) {
    throw errors.unauthenticated(
      "This endpoint takes a patient's portal session: pass the token from POST /v1/public/patients/{embedKey}/login/verify as \"Authorization: Bearer pt_…\". API keys and console sessions are not accepted.",
      'patient_session_required',
    );
  }
  const { expiresAt: _expiresAt, ...principal } = await authenticatePatientToken(ctx.services.database.db, match[1]);
  enforceRateDecision(ctx.state, await ctx.services.rateLimiter.consume(`patient:${principal.sessionId}`, principal.livemode));
  return principal;
}
