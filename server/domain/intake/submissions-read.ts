import { and, eq, inArray, sql } from 'drizzle-orm';
import { intakeAnswers, intakeSubmissions, questionnaires, type IntakeStatus, type SubmissionFacts } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Database, Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { hasScope } from '@/server/domain/developer/scopes';
import { recordAccess } from '@/server/domain/patients/access-log';
import { errors } from '@/server/lib/errors';
import type { QuestionnaireDocument } from './questionnaire-schema';
import { normalizeReference } from './submission-reference';
import { toSubmissionDto, type SubmissionRow } from './submissions-dto';

export const SUBMISSION_STATUS_FILTERS = ['pending_review', 'disqualified', 'approved', 'rejected', 'all'] as const;
export type SubmissionStatusFilter = (typeof SUBMISSION_STATUS_FILTERS)[number];

/** The documents of the questionnaire versions the rows were made against (for their patient messages). */
async function documentsOf(q: Queryable, scope: Scope, rows: SubmissionRow[]) {
  const ids = [...new Set(rows.map((r) => r.questionnaireId))];
  if (ids.length === 0) return new Map<string, QuestionnaireDocument>();
  const found = await q
    .select({ id: questionnaires.id, document: questionnaires.document })
    .from(questionnaires)
    .where(scoped(q, scope).where(questionnaires, inArray(questionnaires.id, ids)));
  return new Map(found.map((r) => [r.id, r.document]));
}

// intake_answers is keyed by its submission (no id of its own), so it is filtered by tenant and mode here.
const answersOf = (scope: Scope, submissionId: string) =>
  and(eq(intakeAnswers.tenantId, scope.tenantId), eq(intakeAnswers.livemode, scope.livemode), eq(intakeAnswers.submissionId, submissionId));

/**
 * The state of residence a submission's person gave (its reconciled fact), for the licence check; null when the
 * path kept none. A state alone identifies no one (HIPAA safe harbor keeps states), so this read is not logged.
 */
export async function submittedStateOf(q: Queryable, scope: Scope, submissionId: string): Promise<string | null> {
  const [row] = await q
    .select({ state: sql<string | null>`${intakeAnswers.facts}->>'state'` })
    .from(intakeAnswers)
    .where(answersOf(scope, submissionId));
  return row?.state ?? null;
}

/** The person a submission describes (PHI: the caller logs the read); null for rows made before facts were kept. */
export async function submittedFactsOf(q: Queryable, scope: Scope, submissionId: string): Promise<SubmissionFacts | null> {
  const [row] = await q.select({ facts: intakeAnswers.facts }).from(intakeAnswers).where(answersOf(scope, submissionId));
  return row?.facts ?? null;
}

/** A submission of the caller's tenant and mode, or the spec's 404. */
export async function requireSubmission(q: Queryable, scope: Scope, id: string) {
  return scoped(q, scope).require(intakeSubmissions, id, 'intake submission');
}

export async function submissionDto(q: Queryable, scope: Scope, row: SubmissionRow) {
  return toSubmissionDto(row, (await documentsOf(q, scope, [row])).get(row.questionnaireId));
}

/**
 * The review queue, newest first, optionally only the submissions with the reference a patient quotes. `sandbox` is the spec's required flag: it must name the caller's own mode
 * (a credential reads only its own mode's submissions), so a mismatch is a 400 rather than a silent empty page.
 */
export async function listSubmissions(
  db: Queryable,
  scope: Scope,
  input: { status: SubmissionStatusFilter; sandbox: 'true' | 'false'; limit: number; startingAfter?: string; reference?: string },
) {
  if ((input.sandbox === 'true') !== !scope.livemode) {
    throw errors.validation(`This credential acts in ${scope.livemode ? 'live' : 'sandbox'} mode; send sandbox=${scope.livemode ? 'false' : 'true'}.`, 'sandbox', 'mode_mismatch');
  }
  // A reference as the patient read it out (case, spaces and dashes aside); one that cannot be one is a 400, not an empty page.
  const reference = input.reference === undefined ? undefined : normalizeReference(input.reference);
  if (reference === null) throw errors.validation('reference must be the 8 letters and digits the patient was shown, like 7KQ2-M9XD.', 'reference');
  const rows = await scoped(db, scope).list(intakeSubmissions, {
    where: and(
      input.status === 'all' ? undefined : eq(intakeSubmissions.status, input.status as IntakeStatus),
      reference ? eq(intakeSubmissions.reference, reference) : undefined,
    ),
    limit: input.limit,
    startingAfter: input.startingAfter,
  });
  const docs = await documentsOf(db, scope, rows);
  return rows.map((r) => toSubmissionDto(r, docs.get(r.questionnaireId)));
}

/**
 * One submission. Its answers (PHI) and the review note come only to a credential holding `patients.read`,
 * and that read is written to the patient's access log (`intake_read`) in the same transaction.
 */
export async function getSubmission(database: Database, principal: TenantPrincipal, id: string, requestId: string | null) {
  return database.db.transaction(async (tx) => {
    const row = await requireSubmission(tx, principal, id);
    const dto = await submissionDto(tx, principal, row);
    if (!hasScope(principal.scopes, 'patients.read')) return dto;
    const [stored] = await tx
      .select({ answers: intakeAnswers.answers })
      .from(intakeAnswers)
      .where(answersOf(principal, row.id));
    await recordAccess(tx, principal, [row.patientId], 'intake_read', requestId);
    return { ...dto, answers: stored?.answers ?? {}, reviewNote: row.reviewNote };
  });
}
