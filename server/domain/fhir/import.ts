import type { Questionnaire } from '@medplum/fhirtypes';
import { describeProblems } from '@/server/domain/intake/questionnaire-problems';
import { storePendingVersion } from '@/server/domain/intake/questionnaires';
import { validateQuestionnaire } from '@/server/domain/intake/validate';
import { AppError, errors, type ErrorDetail } from '@/server/lib/errors';
import { documentFromFhir } from './import-questionnaire';
import { toFhirQuestionnaire } from './questionnaire';
import type { FhirCaller } from './reads';

const MAX_PROBLEMS = 100;

/** 422 naming each problem by its item's linkId (`param`), as the OperationOutcome's issues; nothing was stored. */
function unsupported(problems: ErrorDetail[]): AppError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more; see the issues)` : '';
  return new AppError('validation_error', 'questionnaire_unsupported', 422, `The Questionnaire cannot be imported: ${first.message}${more}. Nothing was saved.`, first.param, undefined, problems.slice(0, MAX_PROBLEMS));
}

/**
 * POST /fhir/Questionnaire: a FHIR Questionnaire stored as a pending version of the clinic's questionnaire
 * (origin `fhir`), inert until a provider approves it as any other. Every element that cannot be imported, and
 * every problem the questionnaire validator finds in the result, is a 422 naming the item by linkId; nothing is
 * stored then. Content equal to the key's approved or pending version makes no new version (decision 45).
 */
export async function importQuestionnaire(c: FhirCaller, body: unknown): Promise<{ resource: Questionnaire; created: boolean }> {
  const resource = body as Record<string, unknown>;
  if (resource.resourceType !== 'Questionnaire') throw errors.validation('The body must be a FHIR Questionnaire (resourceType "Questionnaire").', 'resourceType', 'invalid_resource');
  const mapped = documentFromFhir(resource);
  if ('problems' in mapped) throw unsupported(mapped.problems.map((p) => ({ param: p.linkId, message: p.message })));
  const checked = validateQuestionnaire(mapped.document);
  if (!checked.ok) {
    const items = (mapped.document.items as { linkId: string }[]) ?? [];
    const linkIdOf = (param: string) => items[Number(/^items\.(\d+)/.exec(param)?.[1] ?? NaN)]?.linkId;
    throw unsupported(describeProblems(mapped.document, checked.problems).map((p) => ({ param: (p.param && linkIdOf(p.param)) || undefined, message: p.message })));
  }
  const { row, created } = await storePendingVersion(c.db, c.principal, checked.document, 'fhir');
  return { resource: toFhirQuestionnaire(row, c.publicUrl), created };
}
