import { eq, sql } from 'drizzle-orm';
import { jobs, orderDispatches, pharmacyConnections } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { forAdapter } from '@/server/domain/pharmacies/connections';
import { wakeWorkers } from '@/server/db/outbox';
import { adapterFor } from '@/server/domain/pharmacies/adapter';
import { now } from '@/server/lib/clock';
import { nextSyncAt, type DispatchDeps } from './dispatch';
import { lockOrder } from './lifecycle';
import { SYNC_JOB } from './order-jobs';
import { applyPharmacyState, isTerminal, TARGET } from './pharmacy-state';

// After an acknowledged dispatch: asking the pharmacy where the order stands (status sync).

/**
 * Asks the pharmacy where an acknowledged order stands and applies it. Returns when to ask again, or
 * null once there is nothing left to learn (the order or the pharmacy's answer is final).
 */
export async function syncDispatch(db: Db, scope: Scope, dispatchId: string, deps: Pick<DispatchDeps, 'policy' | 'syncIntervalMs'>): Promise<Date | null> {
  const s = scoped(db, scope);
  const dispatch = await s.get(orderDispatches, dispatchId);
  if (!dispatch || dispatch.status !== 'acknowledged') return null;
  const connection = await s.require(pharmacyConnections, dispatch.connectionId, 'pharmacy connection');
  const state = await adapterFor(db, connection.adapter, deps.policy).lookup(forAdapter(connection), dispatch.idempotencyKey);
  if (!state) return new Date(now().getTime() + deps.syncIntervalMs);
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, scope, dispatch.orderId);
    if (!order || order.dispatchRound !== dispatch.round || isTerminal(order.status)) return null;
    await applyPharmacyState(tx, scope, order, dispatch, state);
    return isTerminal(TARGET[state.status]) ? null : nextSyncAt(state, deps);
  });
}

/**
 * A simulated pharmacy's script changed: its orders in flight may change sooner than their syncs were
 * scheduled, so those syncs run now.
 */
export async function resyncConnection(db: Db, scope: Scope, connectionId: string) {
  const s = scoped(db, scope);
  const moved = await db
    .update(jobs)
    .set({ runAt: now(), updatedAt: now() })
    .where(s.where(jobs, eq(jobs.kind, SYNC_JOB), eq(jobs.status, 'pending'), sql`${jobs.payload}->>'connectionId' = ${connectionId}`))
    .returning({ id: jobs.id });
  if (moved.length) await wakeWorkers(db);
}
