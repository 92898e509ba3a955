import type { QuestionnaireDocument } from './questionnaire-schema';

// INTERFACE PLACEHOLDER (foundation commit): the engine helper replaces this file's bodies.

export type Verdict = 'eligible' | 'disqualified' | 'incomplete';

export interface Evaluation {
  verdict: Verdict;
  /** linkIds of required, enabled items without an answer. */
  missing: string[];
  /** ids of disqualifying rules that matched. */
  hits: string[];
  /** ids of review_flag rules that matched. */
  flags: string[];
}

export interface EvaluateOptions {
  /** The day `age()` is computed on (YYYY-MM-DD, UTC): an input, so the function stays pure. */
  asOf: string;
}

/** Pure, total, deterministic (DESIGN decision 19). */
export function evaluate(_doc: QuestionnaireDocument, _answers: Record<string, unknown>, _options: EvaluateOptions): Evaluation {
  throw new Error('engine not built yet');
}

export interface AnswerProblem {
  /** `answers.<linkId>` */
  param: string;
  /** Names the item and what was expected; never echoes the value. */
  message: string;
}

/** Type-checks answers against the items (unknown linkIds, wrong types, options, min/max). Empty when fine. */
export function checkAnswers(_doc: QuestionnaireDocument, _answers: Record<string, unknown>): AnswerProblem[] {
  throw new Error('engine not built yet');
}
