import { eq } from 'drizzle-orm';
import { orders } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Database } from '@/server/db/types';
import { logger } from '@/server/lib/logger';
import { PharmacyUnavailable } from '@/server/integrations/pharmacies';
import { ORDERS_CHANNEL, sendPlanned, type DispatchDeps, type PlannedDispatch } from './dispatch';
import type { OrderRow } from './lifecycle';

/**
 * After the transaction that started a dispatch commits, the request sends it itself (the fast path), so
 * approve answers with the submitted order. A pharmacy that cannot be reached leaves the order
 * `submitting` for the outbox job to finish; either way the order as it now stands is returned.
 */
export async function sendNow(database: Database, scope: Scope, planned: PlannedDispatch, deps: DispatchDeps & { inline: boolean; waitMs: number }): Promise<OrderRow> {
  const orderId = planned.dispatch.orderId;
  if (deps.inline) {
    try {
      // The order as the acknowledgement left it: the sync job may move it on a moment later.
      const settled = await sendPlanned(database.db, scope, planned, deps);
      if (settled) return settled;
    } catch (err) {
      const reason = err instanceof PharmacyUnavailable ? err.message : 'dispatch failed';
      logger.warn({ orderId, dispatchId: planned.dispatch.id, reason }, 'inline dispatch did not finish; the worker will retry');
    }
  } else {
    await waitForSettle(database, scope, orderId, deps.waitMs);
  }
  return (await scoped(database.db, scope).get(orders, orderId))!;
}

/** Waits (bounded) for a worker to settle the order's dispatch: NOTIFY on ORDERS_CHANNEL, or a re-read. */
async function waitForSettle(database: Database, scope: Scope, orderId: string, waitMs: number) {
  let wake: () => void = () => undefined;
  const woken = new Promise<void>((r) => (wake = r));
  const off = await database.listen(ORDERS_CHANNEL, (payload) => payload === orderId && wake()).catch(() => null);
  try {
    const [row] = await database.db.select({ status: orders.status }).from(orders).where(scoped(database.db, scope).where(orders, eq(orders.id, orderId)));
    if (row?.status !== 'submitting') return;
    await Promise.race([woken, new Promise((r) => setTimeout(r, waitMs).unref())]);
  } finally {
    await off?.();
  }
}
