import type { QuestionnaireResponse, QuestionnaireResponseItemAnswer } from '@medplum/fhirtypes';
import type { intakeSubmissions } from '@/db/schema';
import type { QuestionnaireDocument, QuestionnaireItem } from '@/server/domain/intake/questionnaire-schema';
import { answerMisfit, isEmptyAnswer } from '@/server/domain/intake/shared/answers';
import { enabledLinkIds } from '@/server/domain/intake/shared/engine';
import { toFhirId } from './shared/ids';
import { SYSTEMS } from './systems';

type SubmissionRow = typeof intakeSubmissions.$inferSelect;

/** An answer in the FHIR type of its item; the engine has already checked that it fits. */
function answersOf(item: QuestionnaireItem, value: unknown): QuestionnaireResponseItemAnswer[] {
  const label = (code: string) => item.options?.find((o) => o.value === code)?.label;
  switch (item.type) {
    case 'boolean':
      return [{ valueBoolean: value as boolean }];
    case 'choice':
      return [{ valueCoding: { code: value as string, display: label(value as string) } }];
    case 'multi_choice':
      return (value as string[]).map((code) => ({ valueCoding: { code, display: label(code) } }));
    case 'integer':
      return [{ valueInteger: value as number }];
    case 'decimal':
      return [{ valueDecimal: value as number }];
    case 'date':
      return [{ valueDate: value as string }];
    default:
      return [{ valueString: value as string }];
  }
}

/**
 * A submission as FHIR R4 QuestionnaireResponse: `questionnaire` = canonical|version of the version answered,
 * the patient as subject, the submission time as `authored`, and every answer the engine counted (items enabled
 * by the answers, answers that fit), in the questionnaire's order, typed as its item. PHI: the caller logs it.
 */
export function toFhirQuestionnaireResponse(input: {
  submission: SubmissionRow;
  document: QuestionnaireDocument;
  canonical: string;
  answers: Record<string, unknown>;
}): QuestionnaireResponse {
  const { submission, document, answers } = input;
  const asOf = submission.createdAt.toISOString().slice(0, 10);
  const enabled = new Set(enabledLinkIds(document, answers, { asOf }));
  const items = document.items.flatMap((item) => {
    const value = Object.prototype.hasOwnProperty.call(answers, item.linkId) ? answers[item.linkId] : undefined;
    if (!enabled.has(item.linkId) || value === undefined || value === null || isEmptyAnswer(value)) return [];
    const options = item.options ? new Set(item.options.map((o) => o.value)) : null;
    if (answerMisfit(item, options, value) !== null) return [];
    return [{ linkId: item.linkId, text: item.text, answer: answersOf(item, value) }];
  });
  return {
    resourceType: 'QuestionnaireResponse',
    id: toFhirId(submission.id),
    meta: { lastUpdated: submission.updatedAt.toISOString() },
    identifier: { use: 'usual', system: SYSTEMS.submissionId, value: submission.id },
    questionnaire: `${input.canonical}|${submission.questionnaireVersion}`,
    status: 'completed',
    subject: { reference: `Patient/${toFhirId(submission.patientId)}` },
    authored: submission.createdAt.toISOString(),
    item: items.length ? items : undefined,
  };
}
