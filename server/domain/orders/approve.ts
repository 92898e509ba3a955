import { eq } from 'drizzle-orm';
import { orders } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Database, Tx } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { assertUnderOrderCap } from '@/server/domain/billing/usage';
import { getPatientShippingState } from '@/server/domain/patients/patients';
import { chooseConnection } from '@/server/domain/routing/choose';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { actorOf, SYSTEM } from './actor';
import { lockOrder, startDispatch, type DispatchDeps } from './dispatch';
import { toOrderDto } from './dto';
import { conflict, transition, type OrderRow } from './lifecycle';
import { sendNow } from './settle';

export type SubmitDeps = DispatchDeps & { inline: boolean; waitMs: number };

/**
 * Points an approved order at a pharmacy that can fill every line (its current one if it still
 * qualifies), or rejects it with `no_qualifying_pharmacy` when none can. Sandbox orders only ever reach
 * simulated pharmacies, which is all a sandbox can connect.
 */
async function routeOrDecline(tx: Tx, scope: Scope, order: OrderRow, state: string | null): Promise<OrderRow | null> {
  const preferred = order.connectionId;
  const choice = await chooseConnection(tx, scope, order.items, state);
  const keep = preferred && !choice.ineligible.has(preferred) && choice.connectionId ? preferred : choice.connectionId;
  if (keep) {
    if (keep === order.connectionId) return order;
    const [row] = await tx.update(orders).set({ connectionId: keep, updatedAt: now() }).where(scoped(tx, scope).where(orders, eq(orders.id, order.id))).returning();
    return row;
  }
  await transition(tx, scope, order.id, ['approved'], 'rejected', SYSTEM, { reasonCode: 'no_qualifying_pharmacy', set: { rejectionReasonCode: 'no_qualifying_pharmacy' } });
  return null;
}

async function licensedState(database: Database, principal: TenantPrincipal & { user: NonNullable<TenantPrincipal['user']> }, order: OrderRow) {
  const state = order.patientId ? await getPatientShippingState(database.db, principal, order.patientId) : null;
  if (!state) throw errors.conflict("The patient has no shipping address, so the provider's license for their state cannot be checked.", 'patient_state_unknown');
  if (!principal.user.licensedStates.includes(state)) {
    throw errors.forbidden(`You are not licensed in the patient's state (${state}).`, 'provider_not_licensed');
  }
  return state;
}

/**
 * Spec: approve is the provider's clinical decision; it records `approvedAt` and the approver, then
 * submits at once (DESIGN decisions 8–10, 13) and answers with the submitted order.
 */
export async function approveOrder(database: Database, principal: TenantPrincipal & { user: NonNullable<TenantPrincipal['user']> }, id: string, deps: SubmitDeps) {
  const existing = await scoped(database.db, principal).require(orders, id, 'order');
  if (existing.status !== 'pending_approval') throw conflict(existing, 'approved');
  const state = await licensedState(database, principal, existing);
  const started = await database.db.transaction(async (tx) => {
    const order = await lockOrder(tx, principal, id);
    if (!order || order.status !== 'pending_approval') throw conflict(order ?? existing, 'approved');
    await assertUnderOrderCap(tx, principal);
    const approved = await transition(tx, principal, id, ['pending_approval'], 'approved', actorOf(principal), { set: { approvedAt: now(), approvedBy: principal.userId } });
    const routed = await routeOrDecline(tx, principal, approved!, state);
    return routed ? await startDispatch(tx, principal, routed, actorOf(principal), deps) : null;
  });
  const order = started ? await sendNow(database, principal, id, started, deps) : await scoped(database.db, principal).require(orders, id, 'order');
  return toOrderDto(order);
}

/**
 * Submits a provider-approved order that is waiting to be (re)dispatched, e.g. after a reroute. An order
 * no provider approved is refused with 403 `order_not_approved`; one already dispatched is a 409.
 */
export async function submitOrder(database: Database, principal: TenantPrincipal, id: string, deps: SubmitDeps) {
  const existing = await scoped(database.db, principal).require(orders, id, 'order');
  if (!existing.approvedAt) throw errors.forbidden('A licensed provider has not approved this order; only approved orders can be submitted.', 'order_not_approved');
  if (existing.status !== 'approved') throw conflict(existing, 'submitted');
  const state = existing.patientId ? await getPatientShippingState(database.db, principal, existing.patientId) : null;
  const started = await database.db.transaction(async (tx) => {
    const order = await lockOrder(tx, principal, id);
    if (!order || order.status !== 'approved') throw conflict(order ?? existing, 'submitted');
    await assertUnderOrderCap(tx, principal);
    const routed = await routeOrDecline(tx, principal, order, state);
    return routed ? await startDispatch(tx, principal, routed, actorOf(principal), deps) : null;
  });
  const order = started ? await sendNow(database, principal, id, started, deps) : await scoped(database.db, principal).require(orders, id, 'order');
  return toOrderDto(order);
}
