import { eq } from 'drizzle-orm';
import { orderDispatches, orders } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { getPatientShippingState } from '@/server/domain/patients/patients';
import { chooseConnection, routingRecord } from '@/server/domain/routing/choose';
import { describeIneligible } from '@/server/domain/routing/rank';
import { AppError } from '@/server/lib/errors';
import { actorOf } from './actor';
import { conflict, lockOrder, transition } from './lifecycle';

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
  const named = input.connectionId;
  const choice = await chooseConnection(db, principal, existing.items, state, named ? { preferred: { connectionId: named, kind: 'manual' } } : { exclude: tried });
  if (named) {
    if (!choice.connection(named)) throw new AppError('not_found', 'resource_missing', 404, 'No pharmacy connection of this tenant and mode has this id.', 'connectionId');
    const out = choice.ineligible.find((i) => i.connectionId === named);
    if (out) throw new AppError('validation_error', 'connection_ineligible', 400, `That pharmacy cannot fill this order: ${describeIneligible(out.reason)}`, 'connectionId');
  }
  const target = choice.connectionId;
  if (!target) return { rerouted: false, connectionId: existing.connectionId ?? '' };
  return db.transaction(async (tx) => {
    const order = await lockOrder(tx, principal, id);
    if (!order || order.status !== 'rejected') throw conflict(order ?? existing, 'rerouted');
    await transition(tx, principal, order, ['rejected'], 'approved', actorOf(principal), {
      set: { connectionId: target, rejectionReasonCode: null, routing: routingRecord(choice) },
      reasonCode: 'rerouted',
    });
    return { rerouted: true, connectionId: target };
  });
}
