import { and, eq, sql } from 'drizzle-orm';
import { catalogLines, orders, patients, pharmacyConnections, products, routingPolicies, type ApprovalSnapshot, type OrderStatus } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Database, Queryable } from '@/server/db/types';
import { isLicensedIn } from '@/server/domain/auth/licenses';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { assertBillingAllows } from '@/server/domain/billing/enforcement';
import { NOT_RESUMING, resumeOr, type Resumption } from '@/server/domain/developer/resumption';
import { assertUnderOrderCap } from '@/server/domain/billing/usage';
import { rankRoutes, routingColumns, routingJoins, routingRecord, type RoutingRow } from '@/server/domain/routing/choose';
import { patientStateOf } from '@/server/domain/patients/patients';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { actorOf, SYSTEM } from './actor';
import { approvalLapse, approvalSnapshot, approvalStale, approverOf, prescriberFrom, unchangedWithPatient, withdrawApproval } from './approval';
import { startDispatch, type DispatchDeps, type DispatchParts, type PlannedDispatch } from './dispatch';
import { toOrderDto } from './dto';
import { conflict, conflictNow, orderVersion, transition, type Actor, type OrderRow } from './lifecycle';
import { committedMove } from './resume';
import { sendNow } from './settle';

export type SubmitDeps = DispatchDeps & { inline: boolean };
export type Provider = TenantPrincipal & { user: NonNullable<TenantPrincipal['user']> };

// The order with its patient (of the same tenant and mode), the order's version and routing's inputs for
// its products: one statement for the reads every submit makes (a row per connection and line, each
// carrying the order).
const forDispatch = scopedStatement((own, q) =>
  q
    .select({ order: orders, patient: patients, version: orderVersion, patientVersion: sql<string | null>`${patients}.xmin::text`, ...routingColumns })
    .from(orders)
    .leftJoin(patients, and(eq(patients.id, orders.patientId), eq(patients.tenantId, orders.tenantId), eq(patients.livemode, orders.livemode)))
    .leftJoin(pharmacyConnections, and(eq(pharmacyConnections.tenantId, orders.tenantId), eq(pharmacyConnections.livemode, orders.livemode)))
    .leftJoin(catalogLines, routingJoins.lines((productId) => sql`${productId} in (select line->>'productId' from jsonb_array_elements(${orders.items}) line)`))
    .leftJoin(products, routingJoins.products)
    .leftJoin(routingPolicies, routingJoins.policy)
    .where(and(own(orders), eq(orders.id, sql.placeholder('id')))),
);

/**
 * The order as read, and a guard that makes its move require it (and its patient) unchanged since.
 * Nothing is locked: the move is one statement that writes only if both rows are still these versions, so
 * a concurrent approve, resolve, cancel or patient update makes it a conflict instead of acting on what
 * it read.
 */
async function readOrder(q: Queryable, scope: Scope, id: string) {
  const rows = await scoped(q, scope).run(forDispatch, { id });
  const found = rows[0];
  if (!found) throw errors.notFound('order', id);
  return { order: found.order, patient: found.patient ?? undefined, unchanged: unchangedWithPatient(found.version, found.patientVersion), routing: rows };
}

/**
 * Live orders are metered: the cap check (DESIGN decision 13) holds a lock to the end of a transaction, so
 * the check and the move share one. Sandbox is unmetered and its move is a single statement anyway.
 */
function meteredTransaction<T>(database: Database, scope: Scope, run: (q: Queryable) => Promise<T>): Promise<T> {
  return scope.livemode ? database.db.transaction((tx) => run(tx)) : run(database.db);
}

/**
 * The pharmacy an approved order goes to, by the same decision as the routing plan: its current one (set by
 * a reroute) if that still qualifies for every line, else the policy's best; null when none can fill it.
 * `routing` is why, kept on the order.
 */
function routeFor(order: OrderRow, routing: RoutingRow[], state: string | null) {
  const preferred = order.connectionId ? { connectionId: order.connectionId, kind: 'rerouted' as const } : null;
  const choice = rankRoutes(routing, order.items, state, { preferred });
  const connection = choice.connectionId ? choice.connection(choice.connectionId) : null;
  return { route: connection ? { connection, codes: choice.codesAt(connection.id) } : null, routing: routingRecord(choice) };
}

/**
 * Sends the order on from `path` (approve: approved → submitting; submit: submitting) when a pharmacy
 * qualifies, or records it `rejected` with `no_qualifying_pharmacy` when none does. Sandbox orders only
 * ever reach simulated pharmacies, which is all a sandbox can connect.
 */
async function dispatchOrDecline(
  q: Queryable,
  scope: Scope,
  read: Awaited<ReturnType<typeof readOrder>>,
  path: readonly OrderStatus[],
  actor: Actor,
  parts: Omit<DispatchParts, 'connection' | 'codes' | 'patient'> & { state: string | null },
  deps: SubmitDeps,
  set: Partial<OrderRow> = {},
): Promise<PlannedDispatch | null> {
  const { order, patient, unchanged } = read;
  await assertUnderOrderCap(q, scope);
  const { route, routing } = routeFor(order, read.routing, parts.state);
  if (route) return startDispatch(q, scope, order, path, actor, { ...parts, patient: patient!, ...route }, deps, { set: { ...set, routing }, guard: unchanged });
  // Both steps or neither (a savepoint when already in the metered transaction).
  await q.transaction(async (tx) => {
    const approved = path[0] === 'approved' ? await transition(tx, scope, order, [order.status], 'approved', actor, { set, guard: unchanged }) : order;
    const rejected = approved && (await transition(tx, scope, approved, ['approved'], 'rejected', SYSTEM, { reasonCode: 'no_qualifying_pharmacy', set: { rejectionReasonCode: 'no_qualifying_pharmacy', routing }, guard: approved === order ? unchanged : undefined }));
    if (!rejected) throw await conflictNow(tx, scope, order, 'approved');
  });
  return null;
}

/** After the commit: the request sends the dispatch itself and answers with the order as it then stands. */
export async function sendAndAnswer(database: Database, scope: Scope, id: string, planned: PlannedDispatch | null, deps: SubmitDeps) {
  const order = planned ? await sendNow(database, scope, planned, deps) : await scoped(database.db, scope).require(orders, id, 'order');
  return toOrderDto(order);
}

/**
 * The approval itself, inside the caller's transaction: reads the order with its patient, checks the
 * license against the patient's state, picks the pharmacy and starts the dispatch with a move that requires
 * the order unchanged since the read. The intake review (DESIGN decision 21) calls it in the transaction
 * that creates the order, so both paths share this one dispatch path; `intake` binds the snapshot to the
 * submission the provider reviewed. The caller sends the returned dispatch after its commit (`sendAndAnswer`).
 */
export async function approveWithin(q: Queryable, principal: Provider, id: string, deps: SubmitDeps, intake?: ApprovalSnapshot['intake']) {
  const read = await readOrder(q, principal, id);
  const { order, patient } = read;
  if (order.status !== 'pending_approval') throw conflict(order, 'approved');
  const state = patient ? patientStateOf(patient) : null;
  if (!patient || !state) throw errors.conflict("The patient's state is unknown (no state of residence or shipping address), so the provider's license for it cannot be checked.", 'patient_state_unknown');
  if (!isLicensedIn(principal.user, state)) throw errors.forbidden(`You are not licensed in the patient's state (${state}).`, 'provider_not_licensed');
  const prescriber = prescriberFrom(principal.user);
  // The snapshot binds the approval to what was checked here; the move's guard keeps it true at commit.
  const snapshot = approvalSnapshot(order, patient, state);
  const approval = { approvedAt: now(), approvedBy: principal.userId!, approvalSnapshot: intake ? { ...snapshot, intake } : snapshot };
  return dispatchOrDecline(q, principal, read, ['approved', 'submitting'], actorOf(principal), { prescriber, state }, deps, approval);
}

/**
 * Spec: approve is the provider's clinical decision; it records `approvedAt` and the approver, then
 * submits at once (DESIGN decisions 8–10, 13) and answers with the submitted order.
 */
export function approveOrder(database: Database, principal: Provider, id: string, deps: SubmitDeps, resume: Resumption = NOT_RESUMING) {
  return resumeOr(resume, (since) => committedMove(database.db, principal, id, 'pending_approval', since), async () => {
    const planned = await meteredTransaction(database, principal, async (q) => {
      // A new approval is refused from SOFT_BLOCK on (decision 29); a submit or reroute of an order a provider
      // already approved is not, so this guards approve only, not the dispatch path it shares with them.
      await assertBillingAllows(q, principal, 'new_approval');
      return approveWithin(q, principal, id, deps);
    });
    return sendAndAnswer(database, principal, id, planned, deps);
  });
}

/**
 * Submits a provider-approved order that is waiting to be (re)dispatched, e.g. after a reroute. An order
 * no provider approved is refused with 403 `order_not_approved`; one already dispatched is a 409.
 */
export function submitOrder(database: Database, principal: TenantPrincipal, id: string, deps: SubmitDeps, resume: Resumption = NOT_RESUMING) {
  return resumeOr(resume, (since) => committedMove(database.db, principal, id, 'approved', since), () => submitNow(database, principal, id, deps));
}

async function submitNow(database: Database, principal: TenantPrincipal, id: string, deps: SubmitDeps) {
  const outcome = await meteredTransaction(database, principal, async (q) => {
    const read = await readOrder(q, principal, id);
    const { order, patient } = read;
    if (!order.approvedAt) throw errors.forbidden('A licensed provider has not approved this order; only approved orders can be submitted.', 'order_not_approved');
    if (order.status !== 'approved') throw conflict(order, 'submitted');
    if (!patient) throw errors.notFound('patient', order.patientId ?? '');
    const approver = await approverOf(q, principal, order.approvedBy);
    const lapse = approvalLapse(order, patient, approver);
    // Committed before the refusal: the order must wait for a provider, not for another submit.
    if (lapse) {
      await withdrawApproval(q, principal, order, lapse, { guard: read.unchanged });
      return { lapse, planned: null };
    }
    const planned = await dispatchOrDecline(q, principal, read, ['submitting'], actorOf(principal), { prescriber: prescriberFrom(approver), state: patientStateOf(patient) }, deps);
    return { lapse: null, planned };
  });
  if (outcome.lapse) throw approvalStale(outcome.lapse);
  return sendAndAnswer(database, principal, id, outcome.planned, deps);
}
