import { and, eq, gte } from 'drizzle-orm';
import { intakeSubmissions, patients, protocols, questionnaires } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Database, Db, Tx } from '@/server/db/types';
import { isLicensedIn } from '@/server/domain/auth/licenses';
import { assertBillingAllows } from '@/server/domain/billing/enforcement';
import { approveWithin, type Provider } from '@/server/domain/orders/approve';
import { sendFromRequest, type DispatchDeps } from '@/server/domain/orders/dispatch';
import { checkoutOrderIdOf } from '@/server/domain/flows/checkout-orders';
import { flowProtocolIdOf } from '@/server/domain/flows/run-protocol';
import { createOrder } from '@/server/domain/orders/create';
import { now } from '@/server/lib/clock';
import { AppError, errors } from '@/server/lib/errors';
import { patientStateOf } from '@/server/domain/patients/patients';
import { requireSubmission, submissionDto, submittedStateOf } from './submissions-read';
import type { SubmissionRow } from './submissions-dto';
import { NOT_RESUMING, resumeOr, type Resumption } from '@/server/domain/developer/resumption';

export interface ReviewInput {
  decision: 'approve' | 'reject';
  /** Free text of the provider: kept on the submission only, never in events, logs or errors. */
  note?: string;
}

/** Only a submission still awaiting review can be decided; a disqualified one can never be approved. */
function assertReviewable(row: SubmissionRow, decision: ReviewInput['decision']) {
  if (row.status === 'disqualified' && decision === 'approve') {
    throw errors.conflict('This submission was disqualified by the questionnaire; it cannot be approved.', 'submission_disqualified');
  }
  if (row.status !== 'pending_review') throw errors.conflict(`This submission was already reviewed (${row.status}).`, 'submission_already_reviewed');
}

/** A submission whose patient match is unresolved (DESIGN decision 32) cannot be approved; a reject can go ahead. */
function assertIdentityResolved(row: SubmissionRow, decision: ReviewInput['decision']) {
  if (decision === 'approve' && row.identityStatus === 'mismatch') {
    throw errors.conflict(
      `This submission matched an existing patient whose ${(row.identityFields ?? []).join(', ')} differ${(row.identityFields ?? []).length === 1 ? 's' : ''}: resolve it first (POST /v1/intake/submissions/{id}/resolve-identity).`,
      'identity_unresolved',
    );
  }
}

/**
 * The provider decides for a patient of a state they are licensed in (DESIGN decision 10), approve or reject.
 * The state is the submission's reconciled fact (DESIGN decision 31), else the patient record's.
 */
async function assertLicensedFor(tx: Tx, principal: Provider, row: SubmissionRow) {
  const patient = await scoped(tx, principal).require(patients, row.patientId, 'patient');
  const state = (await submittedStateOf(tx, principal, row.id)) ?? patientStateOf(patient);
  if (!state) throw errors.conflict("The patient's state is unknown, so the provider's license for it cannot be checked: add the address to the patient (PATCH /v1/patients/{id}), then review again.", 'patient_state_unknown');
  if (!isLicensedIn(principal.user, state)) throw errors.forbidden(`You are not licensed in the patient's state (${state}).`, 'provider_not_licensed');
}

/** The lines an approval orders: the protocol of the flow version the run came through, else the questionnaire's. */
async function protocolFor(tx: Tx, principal: Provider, row: SubmissionRow) {
  const s = scoped(tx, principal);
  const questionnaire = await s.require(questionnaires, row.questionnaireId, 'questionnaire');
  const protocolId = (await flowProtocolIdOf(tx, principal, row)) ?? questionnaire.document.protocolId;
  if (!protocolId) throw errors.conflict('The questionnaire names no protocol, so there is nothing to order; reject the submission or order by hand.', 'questionnaire_without_protocol');
  const protocol = await s.get(protocols, protocolId);
  if (!protocol || !protocol.active) throw errors.conflict("The questionnaire's protocol is missing or inactive.", 'protocol_unavailable');
  return { questionnaire, protocol };
}

/**
 * The order of an approved submission, created and approved by the reviewing provider in the caller's
 * transaction through the same approval as POST /orders/{id}/approve (`approveWithin`), its snapshot bound
 * to the submission and the questionnaire version reviewed. Returns the round to send after commit.
 */
async function orderFromSubmission(tx: Tx, principal: Provider, row: SubmissionRow, deps: DispatchDeps) {
  const { questionnaire, protocol } = await protocolFor(tx, principal, row);
  // A flow run whose store checkout already completed: the order carries the store's id (DESIGN decision 28).
  const foreignOrderId = row.flowId ? await checkoutOrderIdOf(tx, principal, row) : undefined;
  const create = (foreign: string | undefined) =>
    createOrder(tx as unknown as Db, principal, {
      items: protocol.items.map(({ productId, quantity, sig, refills }) => ({ productId, quantity, sig, refills })),
      patientId: row.patientId,
      source: row.flowId ? 'flow' : 'intake',
      priority: 'routine',
      foreignOrderId: foreign,
      amberFields: [],
    });
  const order = await create(foreignOrderId)
    // The store reused an order id another flow order holds: the clinical approval goes ahead without it.
    .catch((err: unknown) => (err instanceof AppError && err.code === 'duplicate_foreign_order' ? create(undefined) : Promise.reject(err)))
    .catch((err: unknown) => {
      // createOrder names a bad line by the order body's `items.N.productId`, which the review request has not.
      if (err instanceof AppError && err.status === 400) throw errors.conflict("A product of the questionnaire's protocol is missing or inactive.", 'protocol_unavailable');
      throw err;
    });
  const round = await approveWithin(tx, principal, order.id, deps, { submissionId: row.id, questionnaireHash: questionnaire.contentHash });
  return { orderId: order.id, round };
}

/**
 * POST /intake/submissions/{id}/review. One transaction moves the submission out of `pending_review`
 * (a conditional update, so two reviews cannot both win), and on approval creates the order, approves it and
 * starts its dispatch; after the commit the request sends the dispatch as approve does.
 */
export function reviewSubmission(database: Database, principal: Provider, id: string, input: ReviewInput, deps: DispatchDeps, resume: Resumption = NOT_RESUMING) {
  return resumeOr(resume, (since) => committedReview(database.db, principal, id, since), () => reviewNow(database, principal, id, input, deps));
}

async function reviewNow(database: Database, principal: Provider, id: string, input: ReviewInput, deps: DispatchDeps) {
  const outcome = await database.db.transaction(async (tx) => {
    // Approving creates and approves an order: a new approval, refused from SOFT_BLOCK on (decision 29). A reject is not.
    if (input.decision === 'approve') await assertBillingAllows(tx, principal, 'new_approval');
    const row = await requireSubmission(tx, principal, id);
    assertReviewable(row, input.decision);
    assertIdentityResolved(row, input.decision);
    await assertLicensedFor(tx, principal, row);
    const at = now();
    const s = scoped(tx, principal);
    const decided = await s.update(
      intakeSubmissions,
      id,
      { status: input.decision === 'approve' ? 'approved' : 'rejected', reviewedBy: principal.userId!, reviewedAt: at, reviewNote: input.note ?? null, updatedAt: at },
      eq(intakeSubmissions.status, 'pending_review'),
    );
    if (!decided) throw errors.conflict('This submission was reviewed meanwhile.', 'submission_already_reviewed');
    if (input.decision === 'reject') return { row: decided, order: null };
    const order = await orderFromSubmission(tx, principal, decided, deps);
    const linked = await s.update(intakeSubmissions, id, { orderId: order.orderId });
    return { row: linked!, order };
  });
  if (outcome.order) await sendFromRequest(database.db, principal, outcome.order.round, deps);
  return submissionDto(database.db, principal, outcome.row);
}

/**
 * For a retry that took over the Idempotency-Key claim of a request whose process died: the review that
 * request committed (by this provider, since its claim began), or null when it committed none.
 */
async function committedReview(db: Db, principal: Provider, id: string, since: Date) {
  const [row] = await db
    .select()
    .from(intakeSubmissions)
    .where(scoped(db, principal).where(intakeSubmissions, and(eq(intakeSubmissions.id, id), eq(intakeSubmissions.reviewedBy, principal.userId!), gte(intakeSubmissions.reviewedAt, since))))
    .limit(1);
  return row ? submissionDto(db, principal, row) : null;
}
