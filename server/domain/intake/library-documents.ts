import { QUESTIONNAIRE_LIBRARY } from './library';
import type { QuestionnaireDocument } from './questionnaire-schema';

/**
 * The library's documents as a list, whether the library is an array or a record by key, and whether its
 * entries are documents or `{document, …}`: the one place that knows its shape (the AI draft's offline
 * templates and the demo seed read it through here).
 */
export function libraryDocuments(): QuestionnaireDocument[] {
  const entries = Object.values(QUESTIONNAIRE_LIBRARY as unknown as Record<string, unknown>);
  return entries.map((e) => ((e as { document?: unknown }).document ?? e) as QuestionnaireDocument);
}
