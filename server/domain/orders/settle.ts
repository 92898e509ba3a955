import { orders } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Database } from '@/server/db/types';
import { logger } from '@/server/lib/logger';
import { PharmacyUnavailable } from '@/server/integrations/pharmacies';
import { sendPlanned, type DispatchDeps, type PlannedDispatch } from './dispatch';
import type { OrderRow } from './lifecycle';

/**
 * After the transaction that started a dispatch commits (DESIGN decision 9), the order is `submitting` and its
 * round and outbox job are written. The request sends the round itself (the fast path), so approve answers
 * with the submitted order. Whatever the request does not finish (a pharmacy that cannot be reached, a crash,
 * or `DISPATCH_INLINE=false`, which leaves every send to the workers) the job finishes after the grace period.
 * Either way the answer is the order as it now stands.
 */
export async function sendNow(database: Database, scope: Scope, planned: PlannedDispatch, deps: DispatchDeps & { inline: boolean }): Promise<OrderRow> {
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
  }
  return (await scoped(database.db, scope).get(orders, orderId))!;
}
