import type { QuestionnaireRow } from './questionnaire-store';

/** The API's questionnaire record: the stored version, with timestamps as ISO strings. */
export function toQuestionnaireDto(row: QuestionnaireRow) {
  return {
    id: row.id,
    object: 'questionnaire' as const,
    livemode: row.livemode,
    key: row.key,
    version: row.version,
    status: row.status,
    origin: row.origin,
    title: row.document.title,
    document: row.document,
    contentHash: row.contentHash,
    createdBy: row.createdBy,
    approvedBy: row.approvedBy,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    approvalNote: row.approvalNote,
    retiredAt: row.retiredAt?.toISOString() ?? null,
    supersededBy: row.supersededBy,
    supersededAt: row.supersededAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

