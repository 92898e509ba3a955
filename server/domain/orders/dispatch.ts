import { jobs, orderDispatches, orders, patients, pharmacyConnections, type OrderStatus } from '@/db/schema';
import { jobRow, wakeIfDue } from '@/server/db/outbox';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { assertUnderOrderCap } from '@/server/domain/billing/usage';
import { adapterFor } from '@/server/domain/pharmacies/adapter';
import { callbackUrlOf, forAdapter } from '@/server/domain/pharmacies/connections';
import { lineCodesAt, rankRoutes, routingRecord, type LineCodes, type RoutingRow } from '@/server/domain/routing/choose';
import { PharmacyUnavailable, type DispatchOrder, type PharmacyOrderState } from '@/server/integrations/pharmacies';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { logger } from '@/server/lib/logger';
import { metrics } from '@/server/lib/metrics';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { acknowledgementWrites, type Acknowledgeable } from './acknowledgement-writes';
import { PHARMACY } from './actor';
import { approvalLapse, approverOf, prescriberFrom, withdrawApproval } from './approval';
import { closeOvertakenRound, declineUnroutable, recordOtherwise } from './dispatch-detours';
import { conflictNow, transition, type Actor, type MoveGuard, type OrderRow } from './lifecycle';
import { DISPATCH_JOB } from './order-jobs';

/*
 * DESIGN decision 9: one dispatch round of an order, in the order it happens.
 *
 *   1. startDispatch          inside the transaction of the approve (or submit): the order moves to `submitting`
 *                             with a new round, `pending` (its id is the idempotency key the pharmacy
 *                             de-duplicates on), and an outbox job due `graceMs` later; or, when no pharmacy
 *                             qualifies, to `rejected`.
 *   2. sendFromRequest        after the commit, the request sends its round at once (the fast path);
 *      sendFromJob            the outbox job sends a round still pending after the grace period (a crash, an
 *                             unreachable pharmacy, or `DISPATCH_INLINE=false`, which leaves every send to it);
 *      sendDispatch           the one send both call. Only the job's round can have reached the pharmacy already
 *                             (a crash after its acknowledgement and before ours), so only the job asks first.
 *   3. recordAcknowledgement  the order moves to `submitted` and the round to `acknowledged` in one statement
 *                             that requires the round still pending, so a second sender changes nothing; an
 *                             acknowledgement the order was not waiting for goes the long way (recordOtherwise).
 * Where a round leaves this straight path (no pharmacy qualifies, the order moved past the round before its
 * job ran, an acknowledgement the order was not waiting for), the function named for the turn is in
 * dispatch-detours.ts; an approval that lapsed before the job sent the round is withdrawn (approval.ts). The order's status sync and the pharmacy's
 * callbacks take it on from `submitted` (sync.ts, callbacks.ts).
 */

type DispatchRow = typeof orderDispatches.$inferSelect;
type ConnectionRow = typeof pharmacyConnections.$inferSelect;
type PatientRow = typeof patients.$inferSelect;

export interface DispatchDeps {
  policy: UrlPolicy;
  graceMs: number;
  syncIntervalMs: number;
  /** Whether the request sends its round itself (`DISPATCH_INLINE`); off, every send is the outbox job's. */
  inline: boolean;
  /** This service's public base URL: an http pharmacy's order names `<base>/v1/pharmacy-callbacks/{connectionId}` for its callbacks. */
  publicUrl: string;
  /**
   * Called after the pharmacy acknowledged, before anything is recorded. The product never sets it; the crash
   * tests' worker does, through its own dispatch handler (tests/helpers/crashing-worker.ts).
   */
  afterAcknowledged?: () => void;
}

/**
 * A round to send. The request's (`inline`) carries the payload its transaction built from the rows it
 * guarded, and its outbox job, which becomes the sync job; nobody can have sent it before. The job's is
 * read back from the rows, may have been sent before a crash, and is built from the rows when it is sent.
 */
type Round = { dispatch: Acknowledgeable & Pick<DispatchRow, 'idempotencyKey'>; connection: ConnectionRow } & (
  | { sender: 'inline'; payload: DispatchOrder; jobId: string }
  | { sender: 'job'; order: OrderRow }
);
export type RequestRound = Extract<Round, { sender: 'inline' }>;

/** The order as the approve (or submit) read it, and the guard that makes its move require it unchanged since. */
export interface ReadOrder {
  order: OrderRow;
  unchanged: MoveGuard;
  /** Routing's inputs for the order's products (a row per connection and line). */
  routing: RoutingRow[];
}

/**
 * 1. Sends the order on along `path` (approve: approved → submitting; submit: submitting) toward the pharmacy
 * routing picks, by the same decision as the routing plan: its current one (set by a reroute) if that still
 * qualifies for every line, else the policy's best. The move, guarded by `read.unchanged`, writes the round
 * (unique per order and round: a second dispatch of it is impossible) and its outbox job. When no pharmacy
 * qualifies the order is recorded `rejected` with `no_qualifying_pharmacy` instead, and there is nothing to
 * send (null). Sandbox orders only ever reach simulated pharmacies, which is all a sandbox can connect.
 */
export async function startDispatch(
  q: Queryable,
  scope: Scope,
  read: ReadOrder,
  path: readonly OrderStatus[],
  actor: Actor,
  parts: { patient: PatientRow; state: string | null; prescriber: DispatchOrder['prescriber'] },
  deps: Pick<DispatchDeps, 'graceMs'>,
  set: Partial<OrderRow> = {},
): Promise<RequestRound | null> {
  const { order, unchanged } = read;
  await assertUnderOrderCap(q, scope);
  const preferred = order.connectionId ? { connectionId: order.connectionId, kind: 'rerouted' as const } : null;
  const choice = rankRoutes(read.routing, order.items, parts.state, { preferred });
  const connection = choice.connectionId ? choice.connection(choice.connectionId) : null;
  // Why this pharmacy (or none), kept on the order.
  const routing = routingRecord(choice);
  if (!connection) return declineUnroutable(q, scope, read, path, actor, set, routing);
  const round = order.dispatchRound + 1;
  const id = newId('dispatch');
  const dispatch = { id, orderId: order.id, round, connectionId: connection.id, idempotencyKey: id, status: 'pending', createdAt: now() };
  const job = jobRow({ id: newId('job'), kind: DISPATCH_JOB, payload: { dispatchId: id }, runAt: new Date(now().getTime() + deps.graceMs) });
  const moved = await transition(q, scope, order, [order.status], path, actor, {
    set: { ...set, routing, connectionId: connection.id, dispatchRound: round },
    guard: unchanged,
    also: [
      { table: orderDispatches, rows: [dispatch] },
      { table: jobs, rows: [job] },
    ],
  });
  if (!moved) throw await conflictNow(q, scope, order, path[0] === 'approved' ? 'approved' : 'submitted');
  await wakeIfDue(q, [job.runAt]);
  const payload = toDispatchOrder(moved, { patient: parts.patient, codes: choice.codesAt(connection.id), prescriber: parts.prescriber });
  return { sender: 'inline', dispatch, connection, payload, jobId: job.id };
}

/** What the pharmacy receives of an order: its lines in the pharmacy's codes, the patient and the prescriber. */
function toDispatchOrder(order: OrderRow, { patient, codes, prescriber }: { patient: PatientRow; codes: Map<string, LineCodes>; prescriber: DispatchOrder['prescriber'] }): DispatchOrder {
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

/**
 * 2a. The request's own send of the round it just committed, unless `DISPATCH_INLINE` is off. A failure is
 * the job's to finish after the grace period, so it is logged, not thrown. Returns the order as the
 * pharmacy's acknowledgement left it, or null when the send did not record one.
 */
export async function sendFromRequest(db: Db, scope: Scope, round: RequestRound | null, deps: DispatchDeps): Promise<OrderRow | null> {
  if (!round || !deps.inline) return null;
  try {
    return await countedDispatch('inline', () => sendDispatch(db, scope, round, deps));
  } catch (err) {
    const reason = err instanceof PharmacyUnavailable ? err.message : 'dispatch failed';
    logger.warn({ orderId: round.dispatch.orderId, dispatchId: round.dispatch.id, reason }, 'inline dispatch did not finish; the worker will retry');
    return null;
  }
}

/**
 * 2b. The outbox job (`DISPATCH_JOB`) sends the round if it is still to be sent; a round the order has moved
 * past is closed instead. Errors are thrown: the worker retries the job.
 */
export function sendFromJob(db: Db, scope: Scope, dispatchId: string, deps: DispatchDeps): Promise<OrderRow | null> {
  return countedDispatch('job', async () => {
    const s = scoped(db, scope);
    const dispatch = await s.get(orderDispatches, dispatchId);
    if (!dispatch || dispatch.status !== 'pending') return null;
    const order = await s.require(orders, dispatch.orderId, 'order');
    if (order.status !== 'submitting' || order.dispatchRound !== dispatch.round) return closeOvertakenRound(db, scope, order, dispatch);
    const connection = await s.require(pharmacyConnections, dispatch.connectionId, 'pharmacy connection');
    return sendDispatch(db, scope, { sender: 'job', dispatch, connection, order }, deps);
  });
}

/**
 * 2. Sends a round to its pharmacy at most once and records the acknowledgement. The job asks the pharmacy
 * first whether it already has the key and submits only an unknown one; the request's round is new, and a
 * pharmacy answers a repeated key with its first result anyway, so it submits at once. Returns the order as
 * the acknowledgement left it, or null when there was nothing to record.
 */
async function sendDispatch(db: Db, scope: Scope, round: Round, deps: DispatchDeps): Promise<OrderRow | null> {
  // Sandbox connections can only be simulated; this keeps it true even if a row were edited by hand.
  if (!scope.livemode && round.connection.adapter !== 'simulated') throw new Error('A sandbox order can only be dispatched to a simulated pharmacy.');
  const adapter = adapterFor(db, round.connection.adapter, deps.policy);
  const connection = { ...forAdapter(round.connection), callbackUrl: callbackUrlOf(deps.publicUrl, round.connection.id) };
  const key = round.dispatch.idempotencyKey;
  let state = round.sender === 'job' ? await adapter.lookup(connection, key) : null;
  if (!state) {
    const payload = round.sender === 'inline' ? round.payload : await payloadStillApproved(db, scope, round);
    if (!payload) return null;
    state = await adapter.submit(connection, payload, key);
  }
  deps.afterAcknowledged?.();
  return recordAcknowledgement(db, scope, round.dispatch, state, deps, round.sender === 'inline' ? round.jobId : undefined);
}

/**
 * The job's payload, from what the rows hold now, so the approval must still cover exactly that. When it
 * does not, the order goes back to the approval queue and its round is closed instead (null).
 */
async function payloadStillApproved(db: Db, scope: Scope, { dispatch, order }: Extract<Round, { sender: 'job' }>): Promise<DispatchOrder | null> {
  const [patient, codes, approver] = await Promise.all([
    scoped(db, scope).require(patients, order.patientId!, 'patient'),
    lineCodesAt(db, scope, dispatch.connectionId, order.items.map((i) => i.productId)),
    approverOf(db, scope, order.approvedBy),
  ]);
  const lapse = approvalLapse(order, patient, approver);
  if (lapse) {
    await withdrawApproval(db, scope, order, lapse, { dispatchId: dispatch.id });
    return null;
  }
  return toDispatchOrder(order, { patient, codes, prescriber: prescriberFrom(approver) });
}

/**
 * 3. Records the pharmacy's acknowledgement of a round. Nearly always the order still waits for exactly it:
 * then one statement moves the order to `submitted` (requiring the round still pending), acknowledges the
 * round and schedules the order's status sync (the request's own dispatch job, `jobId`, becomes that sync
 * job). Anything else goes the long way, in a transaction. Returns the order as the acknowledgement left it,
 * or null when it did not move it.
 */
async function recordAcknowledgement(db: Db, scope: Scope, dispatch: Acknowledgeable, state: PharmacyOrderState, deps: DispatchDeps, jobId?: string): Promise<OrderRow | null> {
  // Anything the pharmacy already says beyond receipt is applied by the sync job, at once: the caller
  // of approve gets the submitted order, and every later status arrives through one path.
  const runAt = state.status === 'received' ? nextSyncAt(state, deps) : now();
  const submitted = await transition(db, scope, { id: dispatch.orderId, status: 'submitting', connectionId: dispatch.connectionId }, ['submitting'], 'submitted', PHARMACY(dispatch.connectionId), {
    firstRoutedAt: scope.livemode ? now() : null,
    round: dispatch.round,
    ...acknowledgementWrites(dispatch, state.externalId, runAt, jobId),
  });
  if (!submitted) return recordOtherwise(db, scope, dispatch, state);
  // After the commit: a NOTIFY wakes its listeners only then anyway.
  await wakeIfDue(db, [runAt]);
  return submitted;
}

/** When to ask the pharmacy again: when its script says the order changes, else after the interval. */
export function nextSyncAt(state: Pick<PharmacyOrderState, 'nextChangeAt'>, deps: Pick<DispatchDeps, 'syncIntervalMs'>): Date {
  return state.nextChangeAt ?? new Date(now().getTime() + deps.syncIntervalMs);
}

/** fr_dispatches_total by sender: `recorded` (the pharmacy's answer moved the order), `nothing_recorded`, or `error` (thrown; retried). */
async function countedDispatch<T>(path: Round['sender'], send: () => Promise<T | null>): Promise<T | null> {
  try {
    const order = await send();
    metrics().dispatches.inc({ path, outcome: order ? 'recorded' : 'nothing_recorded' });
    return order;
  } catch (err) {
    metrics().dispatches.inc({ path, outcome: 'error' });
    throw err;
  }
}
