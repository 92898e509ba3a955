import { eq, sql } from 'drizzle-orm';
import { orderDispatches, orders, patients, pharmacyConnections, products, users } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Tx } from '@/server/db/types';
import { forAdapter } from '@/server/domain/pharmacies/connections';
import { itemCodesAt } from '@/server/domain/routing/choose';
import { enqueueJobs } from '@/server/jobs/queue';
import { pharmacyAdapter, type DispatchOrder, type PharmacyOrderState } from '@/server/integrations/pharmacies';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { PHARMACY } from './actor';
import { conflict, transition, type Actor, type OrderRow } from './lifecycle';
import { applyPharmacyState, isTerminal } from './pharmacy-state';

export const DISPATCH_JOB = 'order.dispatch';
export const SYNC_JOB = 'order.sync';
export const PHARMACY_CANCEL_JOB = 'order.pharmacy-cancel';
/** NOTIFY channel: the payload is an order id whose dispatch just settled. */
export const ORDERS_CHANNEL = 'fr_orders';

export interface DispatchDeps {
  policy: UrlPolicy;
  graceMs: number;
  syncIntervalMs: number;
  /** Test hook (crash tests): called after the pharmacy acknowledged, before anything is recorded. */
  afterAcknowledged?: () => void;
}

/** Locks the order row for the rest of the caller's transaction. */
export async function lockOrder(tx: Tx, scope: Scope, id: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(scoped(tx, scope).where(orders, eq(orders.id, id))).for('update');
  return row;
}

/**
 * DESIGN decision 9: an approved order becomes `submitting` with a new dispatch round, whose id is the
 * idempotency key the pharmacy de-duplicates on, and an outbox job that completes it if nobody else does.
 * The unique (order, round) index makes a second dispatch of the same round impossible.
 */
export async function startDispatch(tx: Tx, scope: Scope, order: OrderRow, actor: Actor, deps: Pick<DispatchDeps, 'graceMs'>) {
  const round = order.dispatchRound + 1;
  const moved = await transition(tx, scope, order.id, ['approved'], 'submitting', actor, { set: { dispatchRound: round } });
  if (!moved) throw conflict(order, 'submitted');
  const dispatchId = newId('dispatch');
  await scoped(tx, scope).insert(orderDispatches, {
    id: dispatchId,
    orderId: order.id,
    round,
    connectionId: order.connectionId!,
    idempotencyKey: dispatchId,
    status: 'pending',
    createdAt: now(),
  });
  await enqueueJobs(tx, scope, [{ kind: DISPATCH_JOB, payload: { dispatchId }, runAt: new Date(now().getTime() + deps.graceMs) }]);
  return dispatchId;
}

async function dispatchPayload(db: Db, scope: Scope, order: OrderRow, connectionId: string): Promise<DispatchOrder> {
  const s = scoped(db, scope);
  const productIds = order.items.map((i) => i.productId);
  const [patient, codes, rows, approver] = await Promise.all([
    s.require(patients, order.patientId!, 'patient'),
    itemCodesAt(db, scope, connectionId, productIds),
    db.select({ id: products.id, sku: products.sku }).from(products).where(s.where(products, sql`${products.id} in ${productIds}`)),
    order.approvedBy ? db.select({ npi: users.npi, name: users.name }).from(users).where(eq(users.id, order.approvedBy)).limit(1) : [],
  ]);
  const sku = new Map(rows.map((r) => [r.id, r.sku]));
  const address = patient.address;
  return {
    orderId: order.id,
    livemode: order.livemode,
    items: order.items.map((i) => ({ ...i, sku: sku.get(i.productId) ?? i.productId, itemCode: codes.get(i.productId) ?? '' })),
    patient: {
      id: patient.id,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dateOfBirth: patient.dateOfBirth,
      sex: patient.sex,
      phone: patient.phone,
      email: patient.email,
      address: { line1: address?.line1 ?? '', line2: address?.line2 ?? null, city: address?.city ?? '', state: address?.state ?? '', postalCode: address?.postalCode ?? '', country: address?.country ?? 'US' },
    },
    prescriber: approver[0]?.npi ? { npi: approver[0].npi, name: approver[0].name ?? '' } : null,
  };
}

/**
 * Sends a pending dispatch at most once: the pharmacy is asked first whether it already has the key (a
 * crash after its acknowledgement and before our commit), and only an unknown key is submitted. Then the
 * acknowledgement and the order's move to `submitted` (event `order.routed`) are recorded in one
 * transaction. Returns the order as that transaction left it, or null when there was nothing to record.
 */
export async function runDispatch(db: Db, scope: Scope, dispatchId: string, deps: DispatchDeps): Promise<OrderRow | null> {
  const s = scoped(db, scope);
  const dispatch = await s.get(orderDispatches, dispatchId);
  if (!dispatch || dispatch.status !== 'pending') return null;
  const order = await s.require(orders, dispatch.orderId, 'order');
  if (order.status !== 'submitting' || order.dispatchRound !== dispatch.round) {
    // A callback about this very round already moved the order on: the pharmacy has it (our record of its
    // acknowledgement was lost), so the dispatch stands and a later cancel must still reach the pharmacy.
    const known = order.dispatchRound === dispatch.round && dispatch.pharmacyStatus !== null;
    await db
      .update(orderDispatches)
      .set(known ? { status: 'acknowledged', acknowledgedAt: now() } : { status: 'cancelled' })
      .where(s.where(orderDispatches, eq(orderDispatches.id, dispatchId), eq(orderDispatches.status, 'pending')));
    return null;
  }
  const connection = await s.require(pharmacyConnections, dispatch.connectionId, 'pharmacy connection');
  // Sandbox connections can only be simulated; this keeps it true even if a row were edited by hand.
  if (!order.livemode && connection.adapter !== 'simulated') throw new Error('A sandbox order can only be dispatched to a simulated pharmacy.');
  const adapter = pharmacyAdapter(connection.adapter, { db, policy: deps.policy });
  const conn = forAdapter(connection);
  const state = (await adapter.lookup(conn, dispatch.idempotencyKey)) ?? (await adapter.submit(conn, await dispatchPayload(db, scope, order, connection.id), dispatch.idempotencyKey));
  deps.afterAcknowledged?.();
  return recordAcknowledgement(db, scope, dispatchId, state, deps);
}

async function recordAcknowledgement(db: Db, scope: Scope, dispatchId: string, state: PharmacyOrderState, deps: DispatchDeps): Promise<OrderRow | null> {
  return db.transaction(async (tx) => {
    const s = scoped(tx, scope);
    const [acked] = await tx
      .update(orderDispatches)
      .set({ status: 'acknowledged', externalId: state.externalId, acknowledgedAt: now() })
      .where(s.where(orderDispatches, eq(orderDispatches.id, dispatchId), eq(orderDispatches.status, 'pending')))
      .returning();
    if (!acked) {
      // A cancel got to the pharmacy before this submit did, found nothing and closed the round: the
      // pharmacy has the order now, so it must be told again.
      const current = await s.get(orderDispatches, dispatchId);
      if (current?.status === 'cancelled') await enqueueJobs(tx, scope, [{ kind: PHARMACY_CANCEL_JOB, payload: { dispatchId } }]);
      return null;
    }
    const order = await lockOrder(tx, scope, acked.orderId);
    // Cancelled while the pharmacy was receiving it, or a late answer for a round the order has moved past
    // (rejected and rerouted meanwhile): the pharmacy has an order it must not fill, so tell it to cancel.
    const stale = !!order && order.dispatchRound !== acked.round;
    if (order?.status === 'cancelled' || stale) await enqueueJobs(tx, scope, [{ kind: PHARMACY_CANCEL_JOB, payload: { dispatchId } }]);
    if (stale) return null;
    if (!order || order.status !== 'submitting') return null;
    const submitted = await transition(tx, scope, order.id, ['submitting'], 'submitted', PHARMACY(acked.connectionId), {
      set: { firstRoutedAt: order.firstRoutedAt ?? (order.livemode ? now() : null) },
    });
    // Anything the pharmacy already says beyond receipt is applied by the sync job, at once: the caller
    // of approve gets the submitted order, and every later status arrives through one path.
    const runAt = new Date(now().getTime() + (state.status === 'received' ? deps.syncIntervalMs : 0));
    await enqueueJobs(tx, scope, [{ kind: SYNC_JOB, payload: { dispatchId }, runAt }]);
    await tx.execute(sql`select pg_notify(${ORDERS_CHANNEL}, ${acked.orderId})`);
    return submitted;
  });
}

/** Asks the pharmacy where an acknowledged order stands and applies it; false once the order is finished. */
export async function syncDispatch(db: Db, scope: Scope, dispatchId: string, deps: Pick<DispatchDeps, 'policy'>): Promise<boolean> {
  const s = scoped(db, scope);
  const dispatch = await s.get(orderDispatches, dispatchId);
  if (!dispatch || dispatch.status !== 'acknowledged') return false;
  const order = await s.get(orders, dispatch.orderId);
  if (!order || isTerminal(order.status) || order.dispatchRound !== dispatch.round) return false;
  const connection = await s.require(pharmacyConnections, dispatch.connectionId, 'pharmacy connection');
  const state = await pharmacyAdapter(connection.adapter, { db, policy: deps.policy }).lookup(forAdapter(connection), dispatch.idempotencyKey);
  if (!state) return true;
  return db.transaction(async (tx) => {
    const locked = await lockOrder(tx, scope, order.id);
    if (!locked || locked.dispatchRound !== dispatch.round) return false;
    await applyPharmacyState(tx, scope, locked, dispatchId, state);
    const after = await lockOrder(tx, scope, order.id);
    return !!after && !isTerminal(after.status);
  });
}
