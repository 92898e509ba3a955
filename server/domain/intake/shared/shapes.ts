/**
 * The questionnaire's vocabulary as the engine reads it (DESIGN decision 18), in intake's shared rules (pure, no I/O) so that the
 * engine can live here too: the patient's browser (components/intake) runs the very code the server decides
 * with, and a question appears on screen exactly when the engine counts it. The zod schema
 * (server/domain/intake/questionnaire-schema.ts) builds on these; its inferred types are assignable to the
 * structural ones below.
 */

export const ITEM_TYPES = ['boolean', 'choice', 'multi_choice', 'integer', 'decimal', 'date', 'string', 'text'] as const;
export const CONDITION_OPS = ['eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists'] as const;
export const UNITS = ['cm', 'in', 'kg', 'lb'] as const;
/**
 * Identity facts an item may declare (DESIGN decision 31): the answer is also the person's date of birth, sex at
 * birth or state of residence, reconciled with the contact details and used for the patient record.
 */
export const IDENTITY_FACTS = ['dateOfBirth', 'sexAtBirth', 'state'] as const;
export type IdentityFact = (typeof IDENTITY_FACTS)[number];

export const LINK_ID = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
// `q` names an item, or one of the two derived values: `age(<date item>)`, `bmi(<height item>, <weight item>)`.
export const DERIVED = /^(age)\(\s*([A-Za-z][A-Za-z0-9_-]*)\s*\)$|^(bmi)\(\s*([A-Za-z][A-Za-z0-9_-]*)\s*,\s*([A-Za-z][A-Za-z0-9_-]*)\s*\)$/;

export interface Comparison {
  q: string;
  op: (typeof CONDITION_OPS)[number];
  value?: string | number | boolean | (string | number | boolean)[];
}
export type Condition = Comparison | { all: Condition[] } | { any: Condition[] } | { not: Condition };

/** What the engine reads of an item. */
export interface EngineItem {
  linkId: string;
  type: (typeof ITEM_TYPES)[number];
  required: boolean;
  /** A multi_choice option marked `exclusive` ("None of these") is only ever chosen on its own (DESIGN decision 46). */
  options?: { value: string; label: string; exclusive?: boolean }[];
  min?: number;
  max?: number;
  unit?: (typeof UNITS)[number];
  enableWhen?: Condition;
}

/** What the engine reads of a rule. */
export interface EngineRule {
  id: string;
  when: Condition;
  effect: 'disqualify' | 'review_flag';
}

/** A questionnaire as the engine reads it; a patient's form passes its items with no rules. */
export interface EngineDocument {
  items: EngineItem[];
  rules: EngineRule[];
}

/**
 * The whole questionnaire document as stored (the `questionnaires.document` column) and validated by the
 * domain's zod schema, which is checked against this shape at compile time.
 */
export interface QuestionnaireDocumentShape {
  key: string;
  title: string;
  description?: string;
  protocolId?: string;
  items: (EngineItem & { text: string; help?: string; fact?: IdentityFact })[];
  rules: (EngineRule & { patientMessage: string })[];
}
