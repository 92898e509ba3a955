import { events, intakeAnswers, intakeSubmissions, patientNotices, patients, type IdentityField, type IntakeSource, type IntakeStatus, type SubmissionFacts } from '@/db/schema';
import { scoped, type Scope, type ScopedTable } from '@/server/db/scoped';
import type { Database, Tx } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { newEvent } from '@/server/domain/events/emit';
import { noticeRows } from '@/server/domain/notices/milestones';
import { now as clockNow } from '@/server/lib/clock';
import { AppError } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { issueCertificate, type CertificateSigner } from './certificates';
import { answeredFacts, submissionFacts } from './identity-facts';
import { checkAnswers, evaluate, type Evaluation } from './shared/engine';
import { requireUsableQuestionnaire, type QuestionnaireRow } from './questionnaire-store';
import { submissionReference } from './submission-reference';
import { toSubmissionDto } from './submissions-dto';

type NewEvent = ReturnType<typeof newEvent>;

/** Where a submission came from, as every intake path (in-app, public, hosted link, flow) records it. */
export interface SubmissionOrigin {
  source: IntakeSource;
  patientId: string;
  embedKeyId?: string;
  flowId?: string;
  flowSessionId?: string;
  /** The flow's clinical-plane hash, signed into the certificate when the run came through a flow. */
  clinicalPlaneHash?: string;
  /** The person the submission describes, facts reconciled (PHI: kept beside the answers). */
  facts?: SubmissionFacts;
  /** Identity facts of a matched patient that differ from the submission's: the blocking flag `identity_mismatch`. */
  identityMismatch?: IdentityField[];
}

/** The day `age()` is computed on: today in UTC, an input to the engine so the engine stays pure. */
export const asOfDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Answers that break their items' types: 400 naming the first item (`answers.<linkId>`), the others listed
 * in `details`. The engine's messages name the item and what it expects, never the value sent.
 */
export function assertAnswersFit(questionnaire: QuestionnaireRow, answers: Record<string, unknown>) {
  const problems = checkAnswers(questionnaire.document, answers);
  if (problems.length === 0) return;
  const [first] = problems;
  throw new AppError('validation_error', 'invalid_answer', 400, first.message, first.param, undefined, problems.map((p) => ({ param: p.param, message: p.message })));
}

/**
 * An incomplete run has no status in DESIGN decision 21 (pending_review | disqualified | approved | rejected),
 * so it is refused, not stored: 422 `intake_incomplete` naming the required items still unanswered.
 */
function assertComplete(evaluation: Evaluation) {
  if (evaluation.verdict !== 'incomplete') return;
  const [first] = evaluation.missing;
  throw new AppError(
    'validation_error',
    'intake_incomplete',
    422,
    `Required questions are unanswered: ${evaluation.missing.join(', ')}.`,
    first ? `answers.${first}` : 'answers',
    undefined,
    evaluation.missing.map((linkId) => ({ param: `answers.${linkId}`, message: 'This required question has no answer.' })),
  );
}

/**
 * The paths on which the patient sends the answers themself, and so hears that they arrived. An in-app
 * submission is the clinic's own system entering answers for a patient: the clinic tells them what it wants.
 */
const PATIENT_SOURCES: readonly IntakeSource[] = ['public', 'hosted', 'flow'];

const statusOf = (e: Evaluation): IntakeStatus => (e.verdict === 'disqualified' ? 'disqualified' : 'pending_review');

/**
 * The core every intake path shares: checks the answers against the approved questionnaire, runs the engine,
 * and in the caller's transaction writes the submission, its answers (PHI, their own table), the
 * certificate of an eligible verdict and the event `intake.submission.created`. The caller has already
 * established that the patient is of the scope's tenant and mode. Bad answers and incomplete runs throw
 * before anything is written. `alsoEvents`: the caller's own events about the submission, appended after
 * `intake.submission.created` in the same statement. `signer`: the service's (`ctx.services.auth`), which signs an
 * eligible verdict's certificate; with its cache key, without reading the key per certificate.
 */
export async function recordSubmission(
  tx: Tx,
  scope: Scope,
  questionnaire: QuestionnaireRow,
  origin: SubmissionOrigin,
  answers: Record<string, unknown>,
  signer: CertificateSigner,
  at: Date = clockNow(),
  alsoEvents?: (submissionId: string, evaluation: Evaluation) => NewEvent[],
) {
  assertAnswersFit(questionnaire, answers);
  const evaluation = evaluate(questionnaire.document, answers, { asOf: asOfDay(at) });
  assertComplete(evaluation);
  const id = newId('intakeSubmission');
  const certificate =
    evaluation.verdict === 'eligible'
      ? await issueCertificate(
          tx,
          {
            submissionId: id,
            tenantId: scope.tenantId,
            livemode: scope.livemode,
            questionnaire: { key: questionnaire.key, version: questionnaire.version, contentHash: questionnaire.contentHash },
            answers,
            clinicalPlaneHash: origin.clinicalPlaneHash,
          },
          at,
          signer.deps,
          signer.cacheKey,
        )
      : null;
  const created = newEvent('intake.submission.created', { submissionId: id, verdict: evaluation.verdict });
  // The submission, its answers and its events in one statement (docs/decisions/performance.md, "Public runtime: statements per request").
  const row = await scoped(tx, scope).insert(
    intakeSubmissions,
    {
      id,
      questionnaireId: questionnaire.id,
      questionnaireKey: questionnaire.key,
      questionnaireVersion: questionnaire.version,
      patientId: origin.patientId,
      source: origin.source,
      status: statusOf(evaluation),
      verdict: evaluation.verdict,
      missing: evaluation.missing,
      hits: evaluation.hits,
      flags: evaluation.flags,
      certificate,
      embedKeyId: origin.embedKeyId ?? null,
      flowId: origin.flowId ?? null,
      flowSessionId: origin.flowSessionId ?? null,
      ...(origin.identityMismatch?.length && { identityStatus: 'mismatch' as const, identityFields: origin.identityMismatch, identityMatchedPatientId: origin.patientId }),
      reference: submissionReference(id),
      createdAt: at,
      updatedAt: at,
    },
    [
      { table: intakeAnswers as unknown as ScopedTable, rows: [{ submissionId: id, answers, facts: origin.facts ?? null }] },
      { table: events, rows: [created, ...(alsoEvents?.(id, evaluation) ?? [])] },
      // "Submission received" (DESIGN decision 41) when the patient sent it themself; its rows queue their sends.
      ...(PATIENT_SOURCES.includes(origin.source) ? [{ table: patientNotices, rows: noticeRows('submission', id, { milestone: 'submission_received', cause: null }, at) }] : []),
    ],
  );
  return { row, evaluation, dto: toSubmissionDto(row, questionnaire.document) };
}

export interface InAppSubmission {
  questionnaireKey: string;
  patientId: string;
  answers: Record<string, unknown>;
}

/** POST /intake/submissions: an existing patient of the caller's tenant and mode, the current approved version. */
export async function submitInApp(database: Database, principal: TenantPrincipal, input: InAppSubmission, signer: CertificateSigner) {
  return database.db.transaction(async (tx) => {
    await scoped(tx, principal).require(patients, input.patientId, 'patient');
    const questionnaire = await requireUsableQuestionnaire(tx, principal, input.questionnaireKey);
    // The clinic chose the patient; the answers' facts are kept with the submission (the licence check reads its state).
    const facts = submissionFacts({}, answeredFacts(questionnaire.document, input.answers));
    const { dto } = await recordSubmission(tx, principal, questionnaire, { source: 'in_app', patientId: input.patientId, facts }, input.answers, signer);
    return dto;
  });
}
