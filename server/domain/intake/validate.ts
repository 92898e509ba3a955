import { ZQuestionnaireDocument, type QuestionnaireDocument } from './questionnaire-schema';

// INTERFACE PLACEHOLDER (foundation commit): the engine helper adds the semantic checks.

export interface DocumentProblem {
  /** Dotted path inside the document, e.g. `items.3.enableWhen.q` (callers prefix their body field). */
  param: string;
  message: string;
}

export type DocumentCheck = { ok: true; document: QuestionnaireDocument } | { ok: false; problems: DocumentProblem[] };

/** The one validator every questionnaire passes: the zod schema, then semantic checks (decision 18). */
export function validateQuestionnaire(input: unknown): DocumentCheck {
  const parsed = ZQuestionnaireDocument.safeParse(input);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => ({ param: i.path.join('.'), message: i.message })) };
  return { ok: true, document: parsed.data };
}
