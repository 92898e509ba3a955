import { and, eq, sql } from 'drizzle-orm';
import { catalogLines, orders, patients, pharmacyConnections, products, routingPolicies, type ApprovalSnapshot } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Database, Queryable } from '@/server/db/types';
import { isLicensedIn } from '@/server/domain/auth/licenses';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { assertBillingAllows } from '@/server/domain/billing/enforcement';
import { NOT_RESUMING, resumeOr, type Resumption } from '@/server/domain/developer/resumption';
import { patientStateOf } from '@/server/domain/patients/patients';
import { routingColumns, routingJoins } from '@/server/domain/routing/choose';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { actorOf } from './actor';
import { approvalSnapshot, prescriberFrom, unchangedWithPatient } from './approval';
import { sendFromRequest, startDispatch, type DispatchDeps, type RequestRound } from './dispatch';
import { toOrderDto } from './dto';
import { conflict, orderVersion } from './lifecycle';
import { committedMove } from './resume';

export type Provider = TenantPrincipal & { user: NonNullable<TenantPrincipal['user']> };

/**
 * Spec: approve is the provider's clinical decision; it records `approvedAt` and the approver, then submits
 * at once (DESIGN decisions 8–10, 13) and answers with the submitted order. Read top to bottom:
 *   0. a retry that took over a dead request's Idempotency-Key claim answers with what that request committed;
 *   1. one transaction (metered for live orders) checks, snapshots, approves and starts the dispatch;
 *   2. after the commit the request sends the round itself (the outbox job finishes whatever it does not);
 *   3. the answer is the order as it then stands.
 */
export function approveOrder(database: Database, principal: Provider, id: string, deps: DispatchDeps, resume: Resumption = NOT_RESUMING) {
  return resumeOr(resume, (since) => committedMove(database.db, principal, id, 'pending_approval', since), async () => {
    const round = await meteredTransaction(database, principal, async (q) => {
      // A new approval is refused from SOFT_BLOCK on (decision 29); a submit or reroute of an order a provider
      // already approved is not, so this guards approve only, not the dispatch path it shares with them.
      await assertBillingAllows(q, principal, 'new_approval');
      return approveWithin(q, principal, id, deps);
    });
    const sent = await sendFromRequest(database.db, principal, round, deps);
    return toOrderDto(sent ?? (await scoped(database.db, principal).require(orders, id, 'order')));
  });
}

/**
 * Step 1, inside the caller's transaction: reads the order with its patient, checks the license against the
 * patient's state, snapshots what was checked and starts the dispatch with a move that requires the order
 * and patient unchanged since the read. The intake review (DESIGN decision 21) calls it in the transaction
 * that creates the order, so both share this one path; `intake` binds the snapshot to the submission the
 * provider reviewed. The caller sends the returned round after its commit (`sendFromRequest`).
 */
export async function approveWithin(q: Queryable, principal: Provider, id: string, deps: DispatchDeps, intake?: ApprovalSnapshot['intake']): Promise<RequestRound | null> {
  const read = await readOrder(q, principal, id);
  const { order, patient } = read;
  if (order.status !== 'pending_approval') throw conflict(order, 'approved');
  const state = patient ? patientStateOf(patient) : null;
  if (!patient || !state) throw errors.conflict("The patient's state is unknown (no state of residence or shipping address), so the provider's license for it cannot be checked.", 'patient_state_unknown');
  if (!isLicensedIn(principal.user, state)) throw errors.forbidden(`You are not licensed in the patient's state (${state}).`, 'provider_not_licensed');
  // The snapshot binds the approval to what was checked here; the move's guard keeps it true at commit.
  const snapshot = approvalSnapshot(order, patient, state);
  const approval = { approvedAt: now(), approvedBy: principal.userId!, approvalSnapshot: intake ? { ...snapshot, intake } : snapshot };
  return startDispatch(q, principal, read, ['approved', 'submitting'], actorOf(principal), { patient, state, prescriber: prescriberFrom(principal.user) }, deps, approval);
}

// The order with its patient (of the same tenant and mode), the order's version and routing's inputs for
// its products: one statement for the reads every approve and submit makes (a row per connection and line,
// each carrying the order).
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
export async function readOrder(q: Queryable, scope: Scope, id: string) {
  const rows = await scoped(q, scope).run(forDispatch, { id });
  const found = rows[0];
  if (!found) throw errors.notFound('order', id);
  return { order: found.order, patient: found.patient ?? undefined, unchanged: unchangedWithPatient(found.version, found.patientVersion), routing: rows };
}

/**
 * Live orders are metered: the cap check (DESIGN decision 13) holds a lock to the end of a transaction, so
 * the check and the move share one. Sandbox is unmetered and its move is a single statement anyway.
 */
export function meteredTransaction<T>(database: Database, scope: Scope, run: (q: Queryable) => Promise<T>): Promise<T> {
  return scope.livemode ? database.db.transaction((tx) => run(tx)) : run(database.db);
}
