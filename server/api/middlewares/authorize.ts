import type { Principal, TenantPrincipal } from '@/server/domain/auth/principal';
import { isOps } from '@/server/domain/auth/principal';
import { hasScope } from '@/server/domain/developer/scopes';
import { errors } from '@/server/lib/errors';
import { middleware } from '../trpc';

type WithPrincipal = { principal: Principal };

/** Tenant endpoints: a tenant credential holding the scope named in the procedure's meta. */
export const requireTenantScope = middleware(async ({ ctx, meta, next }) => {
  const { principal } = ctx as typeof ctx & WithPrincipal;
  if (principal.tenantId === null) {
    throw errors.forbidden('Platform ops credentials act on tenants through the /v1/ops and /developer/keys/ops endpoints.', 'tenant_credential_required');
  }
  if (meta?.scope && !hasScope(principal.scopes, meta.scope)) {
    throw errors.forbidden(`This credential lacks the '${meta.scope}' scope required here.`, 'missing_scope');
  }
  return next({ ctx: { principal: principal as TenantPrincipal } });
});

export const requireOps = middleware(async ({ ctx, next }) => {
  const { principal } = ctx as typeof ctx & WithPrincipal;
  if (!isOps(principal)) throw errors.forbidden('This endpoint is for platform operators.', 'ops_only');
  return next();
});
