import { orders } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { actorOf } from './actor';
import { toOrderDto } from './dto';
import { conflict, conflictNow, transition } from './lifecycle';

export const DECLINED_BY_PROVIDER = 'declined_by_provider';

/**
 * A provider's "no" to an order waiting for approval: it is cancelled, and its timeline records who declined
 * and why. The reason is free text about a patient's care, so it is PHI: it lives only on the timeline
 * entry, while the event (and so every webhook) is the ordinary order.cancelled with ids and status. The
 * move, its timeline entry and its event are one statement, so none is written without the others.
 */
export async function declineOrder(db: Db, principal: TenantPrincipal, id: string, reason: string) {
  const existing = await scoped(db, principal).require(orders, id, 'order');
  if (existing.status !== 'pending_approval') throw conflict(existing, 'declined');
  return db.transaction(async (tx) => {
    const moved = await transition(tx, principal, existing, ['pending_approval'], 'cancelled', actorOf(principal), { reasonCode: DECLINED_BY_PROVIDER, note: reason });
    if (!moved) throw await conflictNow(tx, principal, existing, 'declined');
    return toOrderDto(moved);
  });
}
