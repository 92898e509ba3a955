import { and, eq, inArray } from 'drizzle-orm';
import { orderDispatches, orders } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { enqueueJobs } from '@/server/db/outbox';
import { AppError } from '@/server/lib/errors';
import { actorOf } from './actor';
import { toOrderDto } from './dto';
import { DISPATCHED, lockOrder, ORDER_GRAPH, transition } from './lifecycle';
import { PHARMACY_CANCEL_JOB } from './order-jobs';

const finished = (status: string) =>
  new AppError('validation_error', 'order_not_cancellable', 400, `The order is ${status}; a ${status} order cannot be cancelled.`);

/**
 * Spec: any order not delivered and not cancelled can be cancelled (400 otherwise). An order the pharmacy
 * has, or may have, also gets a cancel request through the outbox, in the same transaction.
 */
export async function cancelOrder(db: Db, principal: TenantPrincipal, id: string) {
  const existing = await scoped(db, principal).require(orders, id, 'order');
  if (ORDER_GRAPH[existing.status].length === 0) throw finished(existing.status);
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, principal, id);
    if (!order || ORDER_GRAPH[order.status].length === 0) throw finished(order?.status ?? existing.status);
    const moved = await transition(tx, principal, order, [order.status], 'cancelled', actorOf(principal), { reasonCode: 'cancelled_by_clinic' });
    if (DISPATCHED.includes(order.status)) {
      const sent = await tx
        .select({ id: orderDispatches.id })
        .from(orderDispatches)
        .where(scoped(tx, principal).where(orderDispatches, and(eq(orderDispatches.orderId, id), eq(orderDispatches.round, order.dispatchRound), inArray(orderDispatches.status, ['pending', 'acknowledged']))));
      await enqueueJobs(tx, principal, sent.map((d) => ({ kind: PHARMACY_CANCEL_JOB, payload: { dispatchId: d.id } })));
    }
    return toOrderDto(moved!);
  });
}
