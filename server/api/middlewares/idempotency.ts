import type { Principal } from '@/server/domain/auth/principal';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  parseIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
} from '@/server/domain/developer/idempotency';
import { recordAccess } from '@/server/domain/patients/access-log';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { middleware } from '../trpc';

/** Idempotency-Key on every mutation (DESIGN decision 3); replays carry `Idempotent-Replayed: true`. */
export const idempotency = middleware(async ({ ctx, meta, type, next }) => {
  if (type !== 'mutation' || meta?.idempotent === false) return next();
  const key = parseIdempotencyKey(ctx.req.headers['idempotency-key']);
  if (!key) return next();

  const { principal } = ctx as typeof ctx & { principal: Principal };
  const db = ctx.services.database.db;
  const fingerprint = requestFingerprint(ctx.state.method, ctx.state.path, ctx.state.rawBody);
  const claim = await claimIdempotencyKey(db, { scope: principal.tenantId ?? 'platform', livemode: principal.livemode, key }, fingerprint);
  if (claim.kind === 'replay') {
    const patientId = meta?.returnsPatient ? (claim.body as { id?: unknown } | null)?.id : undefined;
    if (typeof patientId === 'string') await recordAccess(db, principal as TenantPrincipal, [patientId], 'read', ctx.state.requestId);
    ctx.state.status = claim.status;
    ctx.state.headers['Idempotent-Replayed'] = 'true';
    return { ok: true as const, data: claim.body, ctx, marker: undefined as never };
  }

  const result = await next();
  if (result.ok) await completeIdempotencyKey(db, claim.id, meta?.successStatus ?? 200, result.data);
  else await releaseIdempotencyKey(db, claim.id);
  return result;
});
