import { and, eq } from 'drizzle-orm';
import { orderDispatches, pharmacyCallbacks, pharmacyConnections, type CallbackOutcome } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { forAdapter } from '@/server/domain/pharmacies/connections';
import { adapterFor } from '@/server/domain/pharmacies/adapter';
import { CallbackRejected } from '@/server/integrations/pharmacies';
import type { CallbackUpdate } from '@/server/integrations/pharmacies';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { lockOrder } from './lifecycle';
import { applyPharmacyState, type ApplyOutcome } from './pharmacy-state';

/**
 * The one read that is not scoped by a caller: a callback names only its connection, whose tenant and
 * mode then scope everything else. An unknown id is a 404 and nothing is kept (there is no tenant to
 * count it against).
 */
async function connectionOfCallback(db: Db, connectionId: string) {
  const [row] = await db.select().from(pharmacyConnections).where(eq(pharmacyConnections.id, connectionId)).limit(1);
  if (!row) throw errors.notFound('pharmacy connection', connectionId);
  return row;
}

/**
 * `POST /v1/pharmacy-callbacks/{connectionId}`: verifies the Standard Webhooks signature with the
 * connection's secret, finds the order by the dispatch's idempotency key and applies the status (forward
 * only; a repeat or an older status changes nothing). Every callback is kept with its outcome, so
 * reconciliation can count the ones that failed verification or matched no order.
 */
export async function receiveCallback(db: Db, connectionId: string, req: { headers: Record<string, string | string[] | undefined>; rawBody: string }, policy: UrlPolicy) {
  const connection = await connectionOfCallback(db, connectionId);
  const scope: Scope = { tenantId: connection.tenantId, livemode: connection.livemode };
  const keep = (q: Queryable, outcome: CallbackOutcome, update?: CallbackUpdate, orderId?: string) =>
    scoped(q, scope).insert(pharmacyCallbacks, {
      id: newId('pharmacyCallback'),
      connectionId,
      callbackId: update?.callbackId ?? null,
      idempotencyKey: update?.idempotencyKey ?? null,
      status: update?.status ?? null,
      orderId: orderId ?? null,
      outcome,
      receivedAt: now(),
    });

  let update: CallbackUpdate;
  try {
    update = adapterFor(db, connection.adapter, policy).parseCallback(forAdapter(connection), req);
  } catch (err) {
    if (!(err instanceof CallbackRejected)) throw err;
    await keep(db, err.reason);
    if (err.reason === 'bad_signature') throw errors.unauthenticated('The callback signature does not verify with this connection’s secret.', 'invalid_signature');
    throw errors.validation(err.message, undefined, 'invalid_callback');
  }

  const [dispatch] = await db
    .select()
    .from(orderDispatches)
    .where(scoped(db, scope).where(orderDispatches, and(eq(orderDispatches.connectionId, connectionId), eq(orderDispatches.idempotencyKey, update.idempotencyKey))))
    .limit(1);
  if (!dispatch) {
    await keep(db, 'unmatched', update);
    return { received: true as const, outcome: 'unmatched' as const };
  }
  const outcome = await db.transaction(async (tx) => {
    const order = await lockOrder(tx, scope, dispatch.orderId);
    const result: ApplyOutcome = order && order.dispatchRound === dispatch.round ? await applyPharmacyState(tx, scope, order, dispatch, update) : 'stale';
    await keep(tx, result, update, dispatch.orderId);
    return result;
  });
  return { received: true as const, outcome };
}
