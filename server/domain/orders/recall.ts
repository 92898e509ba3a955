import { eq } from 'drizzle-orm';
import { orderDispatches, orderTransitions, pharmacyConnections } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { forAdapter } from '@/server/domain/pharmacies/connections';
import { adapterFor } from '@/server/domain/pharmacies/adapter';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { now } from '@/server/lib/clock';
import { PHARMACY } from './actor';
import { lockOrder, timelineEntry } from './lifecycle';

/** Timeline reasons of the pharmacy's answer to a cancel request (a note: the order's status does not change). */
export const RECALLED = 'pharmacy_recalled';
export const NOT_RECALLED = 'pharmacy_could_not_recall';

/**
 * Asks the pharmacy to cancel a dispatch it has (or may have) and records its answer. A pharmacy that
 * still reports the order as anything but cancelled (shipped, say) could not recall it: the clinic must
 * learn that from the order's timeline, since medication may be on its way to the patient. A pharmacy
 * that never received the order has nothing to recall and leaves no note.
 */
export async function cancelAtPharmacy(db: Db, scope: Scope, dispatchId: string, deps: { policy: UrlPolicy }): Promise<void> {
  const s = scoped(db, scope);
  const dispatch = await s.get(orderDispatches, dispatchId);
  if (!dispatch) return;
  const connection = await s.require(pharmacyConnections, dispatch.connectionId, 'pharmacy connection');
  const state = await adapterFor(db, connection.adapter, deps.policy).cancel(forAdapter(connection), dispatch.idempotencyKey);
  await db.transaction(async (tx) => {
    // The order before its dispatch, as every transaction writing both locks them (lockOrder).
    const order = await lockOrder(tx, scope, dispatch.orderId);
    await tx
      .update(orderDispatches)
      .set({ status: 'cancelled', pharmacyStatus: state?.status ?? dispatch.pharmacyStatus })
      .where(scoped(tx, scope).where(orderDispatches, eq(orderDispatches.id, dispatch.id)));
    if (!state || !order) return;
    const reason = state.status === 'cancelled' ? RECALLED : NOT_RECALLED;
    await scoped(tx, scope).insertMany(orderTransitions, [timelineEntry(order.id, order.status, order.status, PHARMACY(connection.id), reason, now())]);
  });
}
