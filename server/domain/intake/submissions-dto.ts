import { intakeSubmissions } from '@/db/schema';
import type { QuestionnaireDocument } from './questionnaire-schema';

export type SubmissionRow = typeof intakeSubmissions.$inferSelect;

/**
 * The patient-facing texts of the rules a submission matched, in the questionnaire's rule order. They are
 * written by the clinic for the patient to read, so they carry no patient detail of their own.
 */
export function patientMessagesOf(doc: QuestionnaireDocument | null | undefined, ruleIds: readonly string[]): string[] {
  if (!doc) return [];
  const matched = new Set(ruleIds);
  return doc.rules.filter((r) => matched.has(r.id)).map((r) => r.patientMessage);
}

/**
 * The submission record without its answers (they are PHI, returned only by the single read to a credential
 * holding `patients.read`). Ids, statuses, verdicts and rule ids only; the review note is not shown.
 */
export function toSubmissionDto(row: SubmissionRow, doc: QuestionnaireDocument | null | undefined) {
  return {
    id: row.id,
    object: 'intake_submission' as const,
    livemode: row.livemode,
    questionnaireKey: row.questionnaireKey,
    questionnaireVersion: row.questionnaireVersion,
    patientId: row.patientId,
    source: row.source,
    reference: row.reference,
    status: row.status,
    verdict: row.verdict,
    missing: row.missing,
    hits: row.hits,
    flags: row.flags,
    patientMessages: patientMessagesOf(doc, [...row.hits, ...row.flags]),
    certificate: row.certificate,
    orderId: row.orderId,
    reviewedBy: row.reviewedBy,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    identity: identityOf(row),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The patient-matching flag (DESIGN decision 32): which identity facts of the matched patient differed (names
 * only, never values) and how it was resolved; null when the submission was never flagged.
 */
export function identityOf(row: SubmissionRow) {
  if (!row.identityStatus) return null;
  return {
    status: row.identityStatus,
    fields: row.identityFields ?? [],
    resolution: row.identityResolution ?? null,
    resolvedBy: row.identityResolvedBy ?? null,
    resolvedAt: row.identityResolvedAt?.toISOString() ?? null,
  };
}
