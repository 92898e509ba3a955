import { AppError } from '@/server/lib/errors';
import { limitedPrincipal } from './middlewares/authenticate';
import { resolveEmbedKey } from './middlewares/embed';
import { requireApiKey, requireOps, requireProvider, requireTenantScope, requireUserSession, tenantPrincipalWithScope } from './middlewares/authorize';
import { hostedLink, publicIpRateLimit } from './middlewares/hosted-link';
import { idempotency, idempotent } from './middlewares/idempotency';
import { patientPrincipal, resolvePortalKey } from './middlewares/portal';
import { patientSafeOutcome } from './middlewares/public-refusals';
import type { Context } from './context';
import { t, type ProcedureMeta } from './trpc';

/**
 * Checked first by every procedure: one that reads a raw, signed body (pharmacy callbacks) exists only on
 * /v1, where that body is what the sender signed; /api/trpc carries JSON inputs in its own framing.
 */
function servedOnItsTransport(ctx: Context, meta: ProcedureMeta | undefined) {
  if (ctx.transport === 'trpc' && meta?.rawBody) throw new AppError('not_found', 'route_not_found', 404, 'This operation is served only under /v1.');
}

const baseProcedure = t.procedure.use(({ ctx, meta, next }) => {
  servedOnItsTransport(ctx, meta);
  return next();
});

/** No credential: sign-in and link flows, which mint fresh secrets and so are never replayed. */
export const publicProcedure = baseProcedure;

/**
 * The base of the patient-facing builders below: the transport check, and around everything after it the
 * billing refusal made generic (decision 35), in one middleware level (authedProcedure says why).
 */
const patientFacingProcedure = t.procedure.use(async ({ ctx, meta, next }) => {
  servedOnItsTransport(ctx, meta);
  return patientSafeOutcome(await next());
});

/**
 * Any valid credential: API key or user session, of a tenant or of the platform, within its rate limit.
 * The transport check, the principal and its rate limit share one middleware level: tRPC copies the call's
 * options twice at every level, and those copies were a fifth of an authenticated read's CPU (issue 35).
 */
export const authedProcedure = t.procedure.use(async ({ ctx, meta, next }) => {
  servedOnItsTransport(ctx, meta);
  return next({ ctx: { principal: await limitedPrincipal(ctx) } });
});

/** The transport check, then a tenant's credential within its rate limit holding the meta's scope: the tenant builders' first checks, in this order. */
async function scopedTenant(ctx: Context, meta: ProcedureMeta | undefined) {
  servedOnItsTransport(ctx, meta);
  return tenantPrincipalWithScope(await limitedPrincipal(ctx), meta);
}

/** A tenant's credential holding the meta's scope, checked in the same level as the principal (authedProcedure says why). */
const tenantScopedProcedure = t.procedure.use(async ({ ctx, meta, next }) => next({ ctx: { principal: await scopedTenant(ctx, meta) } }));

/**
 * A tenant's API key or user session, holding the scope in the procedure's meta; its checks and the
 * Idempotency-Key's handling in one level (the builder of most of /v1, so of most requests).
 */
export const keyOrUserProcedure = t.procedure.use(async (opts) => {
  const principal = await scopedTenant(opts.ctx, opts.meta);
  return idempotent(opts, principal, (extra) => opts.next({ ctx: { principal, ...extra } }));
});

/** A tenant's machine API key only (the event log); user sessions get 403. */
export const apiKeyProcedure = tenantScopedProcedure.use(requireApiKey).use(idempotency);

/** A tenant user's session holding the meta's scope: the console's own procedures (tRPC only). */
export const sessionProcedure = authedProcedure.use(requireUserSession).use(requireTenantScope).use(idempotency);

/** The signed-in person themself (MFA, logout); never an API key. */
export const userProcedure = authedProcedure.use(requireUserSession).use(idempotency);

/** Clinical approvals: only a verified, MFA-enrolled provider's own session. */
export const providerProcedure = tenantScopedProcedure.use(requireProvider).use(idempotency);

/** Platform operators only (`ops.*`). */
export const opsProcedure = authedProcedure.use(requireOps).use(idempotency);

/**
 * Patient-facing public paths named by an embed key (DESIGN decision 17): the input has an `embedKey` path
 * parameter; ctx gets `embed` (the key's tenant, mode, flow and questionnaires) and a scope-less `principal`
 * standing for the key, so Idempotency-Key replays are kept per tenant, mode and key. Set
 * `meta.idempotencyRequired` on submissions. Served only under /v1/public/… (CORS is answered there). A billing
 * refusal is answered as the generic `flow_unavailable` (decision 35). The key is resolved and the
 * Idempotency-Key handled in the level of the transport check and the billing refusal (authedProcedure says why).
 */
export const embedProcedure = t.procedure.use(async (opts) => {
  const { ctx, meta, next } = opts;
  servedOnItsTransport(ctx, meta);
  const resolved = await resolveEmbedKey(ctx, opts.getRawInput);
  return patientSafeOutcome(await idempotent(opts, resolved.principal, (extra) => next({ ctx: { ...resolved, ...extra } })));
});

/** The public hosted intake link: the one-time token in the path is the credential (DESIGN decision 21); billing refusals as for embedProcedure. */
export const hostedLinkProcedure = patientFacingProcedure.use(publicIpRateLimit).use(hostedLink).use(idempotency);

/**
 * The patient portal's public paths, named by an embed key (DESIGN decision 39): ctx gets `portalKey` (null for
 * an unknown or revoked key: sign-in answers it as it answers a patient not found) and `clientAddress`. No
 * Idempotency-Key: sign-in mints fresh secrets, and is never replayed. Billing refusals as for embedProcedure.
 */
export const portalProcedure = patientFacingProcedure.use(async ({ ctx, getRawInput, next }) => next({ ctx: await resolvePortalKey(ctx, getRawInput) }));

/**
 * A signed-in patient's own endpoints (`/v1/patient/…`, DESIGN decision 40): only a patient session token; ctx
 * gets `patient` (tenant, mode, patient and session). Every read of theirs is written to their access log by
 * the domain. Their changes are idempotent by nature (the same address twice is one change), so no Idempotency-Key.
 */
export const patientProcedure = patientFacingProcedure.use(async ({ ctx, next }) => next({ ctx: { patient: await patientPrincipal(ctx) } }));
