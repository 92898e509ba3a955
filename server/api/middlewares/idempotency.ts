import type { Principal, TenantPrincipal } from '@/server/domain/auth/principal';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  type IdempotencyRequest,
  lockAndClaimIdempotencyKey,
  parseIdempotencyKey,
  releaseIdempotencyKey,
  requestFingerprint,
} from '@/server/domain/developer/idempotency';
import { replayBody, toStored } from '@/server/domain/developer/idempotent-responses';
import type { Resumption } from '@/server/domain/developer/resumption';
import type { Db } from '@/server/db/types';
import { errors } from '@/server/lib/errors';
import type { Context } from '../context';
import { middleware, type ProcedureMeta } from '../trpc';

/** What a procedure learns of its Idempotency-Key claim. */
export interface IdempotencyContext {
  /** Set when this request took over the claim of one whose process died: that run may have committed. */
  resumedSince: Date | null;
}
const NOT_RESUMED: IdempotencyContext = { resumedSince: null };

/** The procedure's Resumption (server/domain/developer/resumption.ts): its claim's takeover, and the replay header. */
export function resumption(ctx: { idempotency?: IdempotencyContext; state: { headers: Record<string, string> } }): Resumption {
  return { since: ctx.idempotency?.resumedSince ?? null, replayed: () => void (ctx.state.headers['Idempotent-Replayed'] = 'true') };
}

/** Carries a failed result out of the transaction, so that the claim and anything written roll back. */
class Failed {
  constructor(readonly result: unknown) {}
}

/**
 * Idempotency-Key on every mutation (DESIGN decision 3); replays carry `Idempotent-Replayed: true`. The
 * claim, the procedure's writes and the stored response commit in one transaction, so a crash at any
 * point leaves either all of them or none (issue 20). Procedures that talk to the outside world mid-request
 * (`externalEffects`) cannot sit in one transaction; their claim is a lease that lapses if its owner dies.
 */
// A builder that uses this level puts the principal in the context first (server/api/procedures.ts).
export const idempotency = middleware((opts) => idempotent(opts, (opts.ctx as Context & { principal: Principal }).principal, (extra) => opts.next({ ctx: extra })));

/** What `idempotent` hands the rest of the call: the claim's takeover, and the services (in a transaction, bound to it). */
type IdempotentCtx = { idempotency: IdempotencyContext; services: Context['services'] };
interface CallOptions {
  ctx: Context;
  meta: ProcedureMeta | undefined;
  type: string;
  path: string;
  getRawInput: () => Promise<unknown>;
}

/**
 * The idempotency middleware's work as a function, for a builder that runs it in the same level as its own
 * checks (server/api/procedures.ts: each level copies the call's options twice). `principal`: the credential
 * the key is kept under, which such a builder has just resolved (so its options need not be copied to carry
 * it). `next` continues the call with `extra` added to its context; the result is the call's, or a replay
 * made in its shape.
 */
export async function idempotent<R extends { ok: boolean }>(opts: CallOptions, principal: Principal, next: (extra: IdempotentCtx) => Promise<R>): Promise<R> {
  const { ctx, meta, type, path, getRawInput } = opts;
  if (type !== 'mutation' || meta?.idempotent === false) return next({ idempotency: NOT_RESUMED, services: ctx.services });
  const key = parseIdempotencyKey(ctx.req.headers['idempotency-key']);
  if (!key && meta?.idempotencyRequired) {
    throw errors.validation('This request needs an Idempotency-Key header (a UUID), so that a retry cannot submit twice.', 'Idempotency-Key', 'idempotency_key_required');
  }
  if (!key) return next({ idempotency: NOT_RESUMED, services: ctx.services });

  const request: IdempotencyRequest = {
    scope: principal.tenantId ?? 'platform',
    livemode: principal.livemode,
    key,
    // Over /api/trpc one request may batch several mutations: each is fingerprinted by its own procedure and input.
    fingerprint:
      ctx.transport === 'trpc'
        ? requestFingerprint('TRPC', path, JSON.stringify((await getRawInput()) ?? null))
        : requestFingerprint(ctx.state.method, ctx.state.path, ctx.state.rawBody),
    credential: principal.keyId ?? principal.userId ?? '',
  };
  const sensitive = { secretFields: meta?.secretFields, patient: meta?.returnsPatient };
  // The status answered: a procedure may set another success status than its meta's (ctx.state.status).
  const status = () => ctx.state.status ?? meta?.successStatus ?? 200;
  const replay = async (db: Db, stored: { status: number; body: unknown; resourceId: string | null }) => {
    const data = await replayBody(db, principal as TenantPrincipal, stored, sensitive, ctx.state.requestId);
    ctx.state.status = stored.status;
    ctx.state.headers['Idempotent-Replayed'] = 'true';
    return { ok: true as const, data, ctx: { ...ctx, principal }, marker: undefined as never } as unknown as R;
  };

  const db = ctx.services.database.db;
  if (meta?.externalEffects) {
    const claim = await claimIdempotencyKey(db, request, true);
    if (claim.kind === 'replay') return replay(db, claim);
    const result = await next({ idempotency: { resumedSince: claim.resumedSince }, services: ctx.services });
    if (result.ok) await completeIdempotencyKey(db, claim.id, toStored(status(), dataOf(result), sensitive));
    else await releaseIdempotencyKey(db, claim.id);
    return result;
  }

  try {
    return await db.transaction(async (tx) => {
      const q = tx as unknown as Db;
      const claim = await lockAndClaimIdempotencyKey(q, request);
      if (claim.kind === 'replay') return replay(q, claim);
      // Every database handle the procedure can reach is the transaction's: on PGlite, one outside it would wait for it forever.
      const services = { ...ctx.services, database: { ...ctx.services.database, db: q }, auth: { ...ctx.services.auth, db: q } };
      const result = await next({ services, idempotency: { resumedSince: claim.resumedSince } });
      if (!result.ok) throw new Failed(result);
      await completeIdempotencyKey(q, claim.id, toStored(status(), dataOf(result), sensitive));
      return result;
    });
  } catch (err) {
    if (err instanceof Failed) return err.result as R;
    throw err;
  }
}

/** A successful call's response data (tRPC's result carries it as `data`). */
const dataOf = (result: { ok: boolean }) => (result as { data?: unknown }).data;
