import { orderTransitions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Tx } from '@/server/db/types';
import type { PharmacyOrderState } from '@/server/integrations/pharmacies';
import { HOLD_RELEASED } from '@/server/lib/pharmacy-reason-codes';
import { now } from '@/server/lib/clock';
import { PHARMACY } from './actor';
import { timelineEntry, type OrderRow } from './lifecycle';

export { HOLD_RELEASED };

/**
 * A pharmacy holds an order by reporting `received` or `accepted` with a reason code (docs/pharmacy-protocol.md:
 * waiting for stock, a prior authorisation, the patient): the order keeps its status, and the hold is a note.
 */
export const holdOf = (state: Pick<PharmacyOrderState, 'status' | 'reasonCode'>): string | null =>
  state.status === 'received' || state.status === 'accepted' ? state.reasonCode : null;

/** A timeline note of a new hold (its code) or of a hold lifted (`hold_released`); the order's status stays. */
export async function noteHold(tx: Tx, scope: Scope, order: Pick<OrderRow, 'id' | 'status' | 'connectionId'>, hold: string | null) {
  await scoped(tx, scope).insertMany(orderTransitions, [timelineEntry(order.id, order.status, order.status, PHARMACY(order.connectionId ?? ''), hold ?? HOLD_RELEASED, now())]);
}
