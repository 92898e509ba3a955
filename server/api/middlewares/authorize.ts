import type { Principal, TenantPrincipal } from '@/server/domain/auth/principal';
import { isOps } from '@/server/domain/auth/principal';
import { hasScope } from '@/server/domain/developer/scopes';
import { errors } from '@/server/lib/errors';
import { middleware } from '../trpc';

type WithPrincipal = { principal: Principal };

/** A tenant credential holding the scope named in the procedure's meta (any one of several); else a 403. */
export function tenantPrincipalWithScope(principal: Principal, meta: { scope?: string | readonly string[] } | undefined): TenantPrincipal {
  if (principal.tenantId === null) {
    throw errors.forbidden('Platform ops credentials act on tenants through the /v1/ops and /developer/keys/ops endpoints.', 'tenant_credential_required');
  }
  const anyOf = meta?.scope === undefined ? [] : typeof meta.scope === 'string' ? [meta.scope] : meta.scope;
  if (anyOf.length && !anyOf.some((scope) => hasScope(principal.scopes, scope))) {
    throw errors.forbidden(`This credential lacks the ${anyOf.map((s) => `'${s}'`).join(' or ')} scope required here.`, 'missing_scope');
  }
  return principal as TenantPrincipal;
}

/** Tenant endpoints: the check above as a middleware of its own, for builders that put another check before it. */
export const requireTenantScope = middleware(async ({ ctx, meta, next }) =>
  next({ ctx: { principal: tenantPrincipalWithScope((ctx as typeof ctx & WithPrincipal).principal, meta) } }),
);

/**
 * A second scope a procedure needs on top of the meta's (which is "any of"): creating, stopping or folding in
 * an experiment changes what patients read, so it needs `flows.manage` besides the analytics scope (27a).
 */
export const requireAlsoScope = (scope: string) =>
  middleware(async ({ ctx, next }) => {
    const { principal } = ctx as typeof ctx & WithPrincipal;
    if (!hasScope(principal.scopes, scope)) throw errors.forbidden(`This credential lacks the '${scope}' scope required here.`, 'missing_scope');
    return next();
  });

export const requireOps = middleware(async ({ ctx, next }) => {
  const { principal } = ctx as typeof ctx & WithPrincipal;
  if (!isOps(principal)) throw errors.forbidden('This endpoint is for platform operators.', 'ops_only');
  return next();
});

/** Endpoints about the signed-in person (MFA enrollment, logout): a user session, never an API key. */
export const requireUserSession = middleware(async ({ ctx, next }) => {
  const { principal } = ctx as typeof ctx & WithPrincipal;
  if (principal.kind !== 'user' || !principal.userId) throw errors.forbidden('This endpoint needs a user session, not an API key.', 'user_session_required');
  return next({ ctx: { principal: principal as Principal & { userId: string } } });
});

/**
 * Clinical authority (DESIGN decision 10): a provider's own session, with a verified NPI and two-factor
 * authentication. API keys, admins, owners and operators never pass, whatever scopes they hold.
 */
export const requireProvider = middleware(async ({ ctx, next }) => {
  const { principal } = ctx as typeof ctx & WithPrincipal;
  const user = principal.kind === 'user' ? principal.user : undefined;
  if (!user || user.role !== 'provider') {
    throw errors.forbidden('Only a licensed provider signed in with their own account can do this.', 'provider_required');
  }
  if (!user.npi || !user.npiVerified) throw errors.forbidden('Your NPI has not been verified yet.', 'npi_not_verified');
  if (!user.mfaEnabled) throw errors.forbidden('Enable two-factor authentication before clinical approvals.', 'mfa_required');
  return next({ ctx: { principal: principal as TenantPrincipal & { user: NonNullable<Principal['user']> } } });
});

/** Spec (Authentication 7): the event log is read with a machine API key; a user session gets 403. */
export const requireApiKey = middleware(async ({ ctx, next }) => {
  const { principal } = ctx as typeof ctx & WithPrincipal;
  if (principal.kind !== 'key') throw errors.forbidden('The event log is read with a machine API key, not a user session.', 'api_key_required');
  return next();
});
