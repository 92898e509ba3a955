import { eq } from 'drizzle-orm';
import { orderDispatches, orders } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { getPatientShippingState } from '@/server/domain/patients/patients';
import { chooseConnection } from '@/server/domain/routing/choose';
import { describeIneligible } from '@/server/domain/routing/rank';
import { AppError } from '@/server/lib/errors';
import { actorOf } from './actor';
import { lockOrder } from './dispatch';
import { conflict, transition } from './lifecycle';

/**
 * Spec: a rejected (or failed) order is pointed at another pharmacy — the one named, which must qualify,
 * or the policy's next best among those not yet tried. Found: the order is `approved` again (approval
 * survives a reroute, DESIGN decision 8) and a later submit dispatches it. None: `{rerouted: false}`.
 */
export async function rerouteOrder(db: Db, principal: TenantPrincipal, id: string, input: { connectionId?: string }) {
  const s = scoped(db, principal);
  const existing = await s.require(orders, id, 'order');
  if (existing.status !== 'rejected') throw conflict(existing, 'rerouted');
  const state = existing.patientId ? await getPatientShippingState(db, principal, existing.patientId) : null;
  const tried = (await db.select({ id: orderDispatches.connectionId }).from(orderDispatches).where(s.where(orderDispatches, eq(orderDispatches.orderId, id)))).map((r) => r.id);
  const choice = await chooseConnection(db, principal, existing.items, state, input.connectionId ? [] : tried);
  let target = choice.connectionId;
  if (input.connectionId) {
    const why = choice.ineligible.get(input.connectionId);
    if (!why && !choice.ranked.includes(input.connectionId)) {
      throw new AppError('not_found', 'resource_missing', 404, 'No pharmacy connection of this tenant and mode has this id.', 'connectionId');
    }
    if (why) throw new AppError('validation_error', 'connection_ineligible', 400, `That pharmacy cannot fill this order: ${describeIneligible(why)}`, 'connectionId');
    target = input.connectionId;
  }
  if (!target) return { rerouted: false, connectionId: existing.connectionId ?? '' };
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, principal, id);
    if (!order || order.status !== 'rejected') throw conflict(order ?? existing, 'rerouted');
    await transition(tx, principal, order, ['rejected'], 'approved', actorOf(principal), {
      set: { connectionId: target, rejectionReasonCode: null },
      reasonCode: 'rerouted',
    });
    return { rerouted: true, connectionId: target! };
  });
}
