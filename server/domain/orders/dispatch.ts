import { and, eq, isNull, sql } from 'drizzle-orm';
import { jobs, orderDispatches, orders, patients, pharmacyConnections, type OrderStatus } from '@/db/schema';
import { placeholders } from '@/server/db/prepared';
import { scoped, scopedStatement, type AlsoUpdate, type Scope } from '@/server/db/scoped';
import type { Db, Queryable, Tx } from '@/server/db/types';
import { forAdapter } from '@/server/domain/pharmacies/connections';
import { lineCodesAt, type LineCodes } from '@/server/domain/routing/choose';
import { enqueueJobs, jobRow, wakeIfDue } from '@/server/db/outbox';
import { adapterFor } from '@/server/domain/pharmacies/adapter';
import { type DispatchOrder, type PharmacyOrderState } from '@/server/integrations/pharmacies';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { PHARMACY } from './actor';
import { approvalLapse, approverOf, prescriberFrom, withdrawApproval } from './approval';
import { conflictNow, transition, type Actor, type MoveGuard, type OrderRow } from './lifecycle';
import { countedDispatch } from './dispatch-outcomes';

export const DISPATCH_JOB = 'order.dispatch';
export const SYNC_JOB = 'order.sync';
export const PHARMACY_CANCEL_JOB = 'order.pharmacy-cancel';

type DispatchRow = typeof orderDispatches.$inferSelect;
type ConnectionRow = typeof pharmacyConnections.$inferSelect;
type PatientRow = typeof patients.$inferSelect;

export interface DispatchDeps {
  policy: UrlPolicy;
  graceMs: number;
  syncIntervalMs: number;
  /** Test hook (crash tests): called after the pharmacy acknowledged, before anything is recorded. */
  afterAcknowledged?: () => void;
}

/** What the approving request already holds, so its own send needs no second read of any of it. */
export interface DispatchParts {
  connection: ConnectionRow;
  patient: PatientRow;
  codes: Map<string, LineCodes>;
  prescriber: { npi: string; name: string } | null;
}

/** A dispatch round as its transaction committed it, ready for the request to send at once. */
export interface PlannedDispatch {
  dispatch: Acknowledgeable & Pick<DispatchRow, 'idempotencyKey'>;
  connection: ConnectionRow;
  payload: DispatchOrder;
  /** The outbox job that completes the dispatch if the request does not; it becomes the sync job. */
  jobId: string;
}

const lockStatement = scopedStatement((own, q) => q.select().from(orders).where(and(own(orders), eq(orders.id, sql.placeholder('id')))).for('update'));

/**
 * Locks the order row for the rest of the caller's transaction. A transaction that writes both an order
 * and its dispatch rounds takes this lock first: two that lock them in opposite orders deadlock (a cancel
 * job against a pharmacy callback did, and one of them failed after PostgreSQL's deadlock_timeout).
 */
export async function lockOrder(tx: Tx, scope: Scope, id: string): Promise<OrderRow | undefined> {
  const [row] = await scoped(tx, scope).run(lockStatement, { id });
  return row;
}

/**
 * DESIGN decision 9: the locked order walks `path` to `submitting` (in one update, pointed at the parts'
 * pharmacy) with a new dispatch round, whose id is the idempotency key the pharmacy de-duplicates on,
 * and an outbox job that completes it if nobody else does. The unique (order, round) index makes a
 * second dispatch of the same round impossible.
 */
export async function startDispatch(
  q: Queryable,
  scope: Scope,
  order: OrderRow,
  path: readonly OrderStatus[],
  actor: Actor,
  parts: DispatchParts,
  deps: Pick<DispatchDeps, 'graceMs'>,
  opts: { set?: Partial<OrderRow>; guard?: MoveGuard } = {},
): Promise<PlannedDispatch> {
  const round = order.dispatchRound + 1;
  const id = newId('dispatch');
  const jobId = newId('job');
  const dispatch = { id, orderId: order.id, round, connectionId: parts.connection.id, idempotencyKey: id, status: 'pending', createdAt: now() };
  const job = jobRow({ id: jobId, kind: DISPATCH_JOB, payload: { dispatchId: id }, runAt: new Date(now().getTime() + deps.graceMs) });
  const moved = await transition(q, scope, order, [order.status], path, actor, {
    set: { ...opts.set, connectionId: parts.connection.id, dispatchRound: round },
    guard: opts.guard,
    also: [
      { table: orderDispatches, rows: [dispatch] },
      { table: jobs, rows: [job] },
    ],
  });
  if (!moved) throw await conflictNow(q, scope, order, path[0] === 'approved' ? 'approved' : 'submitted');
  await wakeIfDue(q, [job.runAt]);
  return { dispatch, connection: parts.connection, payload: toDispatchOrder(moved, parts), jobId };
}

function toDispatchOrder(order: OrderRow, { patient, codes, prescriber }: Omit<DispatchParts, 'connection'>): DispatchOrder {
  const address = patient.address;
  return {
    orderId: order.id,
    livemode: order.livemode,
    items: order.items.map((i) => ({ ...i, sku: codes.get(i.productId)?.sku ?? i.productId, itemCode: codes.get(i.productId)?.itemCode ?? '' })),
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
    prescriber,
  };
}

function dispatchAdapter(db: Db, order: { livemode: boolean }, connection: ConnectionRow, deps: Pick<DispatchDeps, 'policy'>) {
  // Sandbox connections can only be simulated; this keeps it true even if a row were edited by hand.
  if (!order.livemode && connection.adapter !== 'simulated') throw new Error('A sandbox order can only be dispatched to a simulated pharmacy.');
  return adapterFor(db, connection.adapter, deps.policy);
}

/**
 * The request's own first send of the round it just committed. Nobody can have sent it before (the
 * outbox job waits `graceMs`), and a pharmacy answers a repeated key with its first result anyway, so
 * there is nothing to look up first.
 */
export const sendPlanned = (db: Db, scope: Scope, planned: PlannedDispatch, deps: DispatchDeps) => countedDispatch('inline', sendPlannedOnce(db, scope, planned, deps));

async function sendPlannedOnce(db: Db, scope: Scope, planned: PlannedDispatch, deps: DispatchDeps): Promise<OrderRow | null> {
  const adapter = dispatchAdapter(db, planned.payload, planned.connection, deps);
  const state = await adapter.submit(forAdapter(planned.connection), planned.payload, planned.dispatch.idempotencyKey);
  deps.afterAcknowledged?.();
  return recordAcknowledgement(db, scope, planned.dispatch, state, deps, { jobId: planned.jobId });
}

/**
 * The outbox side: sends a pending dispatch at most once. The pharmacy is asked first whether it already
 * has the key (a crash after its acknowledgement and before our commit), and only an unknown key is
 * submitted. Returns the order as the acknowledgement left it, or null when there was nothing to record.
 */
export const runDispatch = (db: Db, scope: Scope, dispatchId: string, deps: DispatchDeps) => countedDispatch('job', runDispatchOnce(db, scope, dispatchId, deps));

async function runDispatchOnce(db: Db, scope: Scope, dispatchId: string, deps: DispatchDeps): Promise<OrderRow | null> {
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
  const adapter = dispatchAdapter(db, order, connection, deps);
  const conn = forAdapter(connection);
  let state = await adapter.lookup(conn, dispatch.idempotencyKey);
  if (!state) {
    const productIds = order.items.map((i) => i.productId);
    const [patient, codes, approver] = await Promise.all([
      s.require(patients, order.patientId!, 'patient'),
      lineCodesAt(db, scope, connection.id, productIds),
      approverOf(db, scope, order.approvedBy),
    ]);
    // Sent from what the rows hold now, so the approval must still cover exactly that.
    const lapse = approvalLapse(order, patient, approver);
    if (lapse) {
      await withdrawApproval(db, scope, order, lapse, { dispatchId: dispatch.id });
      return null;
    }
    state = await adapter.submit(conn, toDispatchOrder(order, { patient, codes, prescriber: prescriberFrom(approver) }), dispatch.idempotencyKey);
  }
  deps.afterAcknowledged?.();
  return recordAcknowledgement(db, scope, dispatch, state, deps, {});
}

/** When to ask the pharmacy again: when its script says the order changes, else after the interval. */
export function nextSyncAt(state: Pick<PharmacyOrderState, 'nextChangeAt'>, deps: Pick<DispatchDeps, 'syncIntervalMs'>): Date {
  return state.nextChangeAt ?? new Date(now().getTime() + deps.syncIntervalMs);
}

const syncPayload = (dispatch: Pick<DispatchRow, 'id' | 'connectionId'>) => ({ dispatchId: dispatch.id, connectionId: dispatch.connectionId });

/** What recording a pharmacy's acknowledgement needs to know of the dispatch round. */
type Acknowledgeable = Pick<DispatchRow, 'id' | 'orderId' | 'round' | 'connectionId'>;

const acknowledgeStatement = scopedStatement((own, q) =>
  q
    .update(orderDispatches)
    .set({ status: 'acknowledged', ...placeholders(['externalId', 'acknowledgedAt']) })
    .where(and(own(orderDispatches), eq(orderDispatches.id, sql.placeholder('id')), eq(orderDispatches.status, 'pending')))
    .returning(),
);

/** The move to `submitted` requires the round's dispatch still pending (nobody recorded it since it was sent). */
const pendingDispatch = (dispatchId: string): MoveGuard => ({
  key: 'dispatch-pending',
  where: (own) =>
    sql`exists (select 1 from ${orderDispatches} where ${own(orderDispatches)} and ${orderDispatches.id} = ${sql.placeholder('ack:id')} and ${orderDispatches.status} = 'pending')`,
  values: { 'ack:id': dispatchId },
});

/** …and records the acknowledgement in the same statement. */
const acknowledged = (externalId: string | null): AlsoUpdate => ({
  name: 'acked',
  key: 'dispatch-ack',
  build: (own, q, moved) =>
    q
      .update(orderDispatches)
      .set({ status: 'acknowledged', ...placeholders(['externalId', 'acknowledgedAt'], 'ack:') })
      .where(and(own(orderDispatches), eq(orderDispatches.id, sql.placeholder('ack:id')), eq(orderDispatches.status, 'pending'), moved))
      .returning({ id: orderDispatches.id }),
  values: { 'ack:externalId': externalId, 'ack:acknowledgedAt': now() },
});

/**
 * The request's own dispatch job, not yet claimed by a worker, becomes the order's sync job (one update
 * instead of a new job now and a no-op dispatch run later); `syncJob(…, 'reused')` writes a new one otherwise.
 */
const reusedAsSync = (jobId: string, dispatch: Acknowledgeable, runAt: Date): AlsoUpdate => ({
  name: 'reused',
  key: 'job-to-sync',
  build: (own, q, moved) =>
    q
      .update(jobs)
      .set({ kind: SYNC_JOB, ...placeholders(['payload', 'runAt', 'updatedAt'], 'sync:') })
      .where(and(own(jobs), eq(jobs.id, sql.placeholder('sync:jobId')), eq(jobs.kind, DISPATCH_JOB), isNull(jobs.lockedBy), moved))
      .returning({ id: jobs.id }),
  values: { 'sync:jobId': jobId, 'sync:payload': syncPayload(dispatch), 'sync:runAt': runAt, 'sync:updatedAt': now() },
});

const syncJob = (dispatch: Acknowledgeable, runAt: Date, unless?: string) => ({ table: jobs, rows: [jobRow({ kind: SYNC_JOB, payload: syncPayload(dispatch), runAt })], unless });

/**
 * Records the pharmacy's acknowledgement of a dispatch round. Nearly always the order still waits for
 * exactly it: then one statement moves the order to `submitted` (requiring the round's dispatch still
 * pending), acknowledges the dispatch and schedules the order's status sync. Anything else goes the long
 * way, in a transaction. Returns the order as the acknowledgement left it, or null when it did not move it.
 */
async function recordAcknowledgement(
  db: Db,
  scope: Scope,
  dispatch: Acknowledgeable,
  state: PharmacyOrderState,
  deps: DispatchDeps,
  opts: { jobId?: string },
): Promise<OrderRow | null> {
  // Anything the pharmacy already says beyond receipt is applied by the sync job, at once: the caller
  // of approve gets the submitted order, and every later status arrives through one path.
  const runAt = state.status === 'received' ? nextSyncAt(state, deps) : now();
  const submitted = await transition(db, scope, { id: dispatch.orderId, status: 'submitting', connectionId: dispatch.connectionId }, ['submitting'], 'submitted', PHARMACY(dispatch.connectionId), {
    firstRoutedAt: scope.livemode ? now() : null,
    round: dispatch.round,
    guard: pendingDispatch(dispatch.id),
    alsoUpdate: [acknowledged(state.externalId), ...(opts.jobId ? [reusedAsSync(opts.jobId, dispatch, runAt)] : [])],
    also: [syncJob(dispatch, runAt, opts.jobId ? 'reused' : undefined)],
  });
  if (!submitted) return recordOtherwise(db, scope, dispatch, state);
  // After the commit: a NOTIFY wakes its listeners only then anyway.
  await wakeIfDue(db, [runAt]);
  return submitted;
}

/** An acknowledgement the order was not waiting for, recorded as such: the pharmacy may have to be told to cancel. */
async function recordOtherwise(db: Db, scope: Scope, dispatch: Acknowledgeable, state: PharmacyOrderState): Promise<null> {
  return db.transaction(async (tx) => {
    const s = scoped(tx, scope);
    const order = await lockOrder(tx, scope, dispatch.orderId);
    const [acked] = await s.run(acknowledgeStatement, { id: dispatch.id, externalId: state.externalId, acknowledgedAt: now() });
    if (!acked) {
      // A cancel got to the pharmacy before this submit did, found nothing and closed the round: the
      // pharmacy has the order now, so it must be told again.
      const current = await s.get(orderDispatches, dispatch.id);
      if (current?.status === 'cancelled') await enqueueJobs(tx, scope, [{ kind: PHARMACY_CANCEL_JOB, payload: { dispatchId: dispatch.id } }]);
      return null;
    }
    // Cancelled while the pharmacy was receiving it, or a late answer for a round the order has moved past
    // (rejected and rerouted meanwhile): the pharmacy has an order it must not fill, so tell it to cancel.
    // (A callback of this round that already moved the order on leaves nothing to do.)
    if (order && (order.status === 'cancelled' || order.dispatchRound !== acked.round)) {
      await enqueueJobs(tx, scope, [{ kind: PHARMACY_CANCEL_JOB, payload: { dispatchId: dispatch.id } }]);
    }
    return null;
  });
}
