import { QUESTIONNAIRE_LIBRARY } from './library';
import type { QuestionnaireDocument } from './questionnaire-schema';

/** The library's documents (the AI draft's offline templates and the demo seed read them through here). */
export function libraryDocuments(): QuestionnaireDocument[] {
  return [...QUESTIONNAIRE_LIBRARY];
}
