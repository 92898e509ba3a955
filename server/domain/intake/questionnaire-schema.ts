import * as z from '@/server/lib/zod';
import { CONDITION_OPS, IDENTITY_FACTS, ITEM_TYPES, LINK_ID, UNITS, type Condition, type QuestionnaireDocumentShape } from '@/server/domain/intake/shared/shapes';

// The vocabulary lives in server/lib beside the engine (shared with the patient's browser); re-exported here.
export { CONDITION_OPS, DERIVED, IDENTITY_FACTS, ITEM_TYPES, LINK_ID, UNITS, type Comparison, type Condition, type IdentityFact } from '@/server/domain/intake/shared/shapes';

/**
 * The questionnaire document (DESIGN decision 18): the one shape a hand-written version, an AI draft and the
 * seed all pass through. Conditions are a closed tree of data, never code, so the engine can be total.
 */

export const QUESTIONNAIRE_KEY = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const scalar = z.union([z.string().max(500), z.number().finite(), z.boolean()]);

export const ZComparison = z.strictObject({
  q: z.string().min(1).max(200),
  op: z.enum(CONDITION_OPS),
  value: z.union([scalar, z.array(scalar).max(100)]).optional(),
});

export const ZCondition: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    ZComparison,
    z.strictObject({ all: z.array(ZCondition).min(1).max(50) }),
    z.strictObject({ any: z.array(ZCondition).min(1).max(50) }),
    z.strictObject({ not: ZCondition }),
  ]),
);

export const ZOption = z.strictObject({
  value: z.string().min(1).max(100),
  label: z.string().min(1).max(300),
  // "None of these" (DESIGN decision 46): chosen with any other option of a multi_choice the answer is refused.
  exclusive: z.boolean().optional(),
});

export const ZItem = z.strictObject({
  linkId: z.string().regex(LINK_ID, 'a linkId: a letter, then letters, digits, _ or -, at most 64'),
  text: z.string().min(1).max(1000),
  help: z.string().max(1000).optional(),
  type: z.enum(ITEM_TYPES),
  required: z.boolean(),
  options: z.array(ZOption).min(1).max(100).optional(),
  min: z.number().finite().optional(),
  max: z.number().finite().optional(),
  unit: z.enum(UNITS).optional(),
  enableWhen: ZCondition.optional(),
  // The answer is also an identity fact of the person (DESIGN decision 31); see validate.ts for the shapes allowed.
  fact: z.enum(IDENTITY_FACTS).optional(),
});

export const ZRule = z.strictObject({
  id: z.string().regex(LINK_ID, 'a rule id: a letter, then letters, digits, _ or -, at most 64'),
  when: ZCondition,
  effect: z.enum(['disqualify', 'review_flag']),
  patientMessage: z.string().min(1).max(500),
});

export const ZQuestionnaireDocument = z.strictObject({
  key: z.string().regex(QUESTIONNAIRE_KEY, 'a key: lowercase letters, digits, _ or -, at most 64'),
  title: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  // The protocol whose lines an approved submission orders; part of what the provider approves.
  protocolId: z.string().regex(/^prt_[0-9a-z]{26}$/, 'a prt_ id').optional(),
  items: z.array(ZItem).min(1).max(200),
  rules: z.array(ZRule).max(200),
});

export type QuestionnaireItem = z.infer<typeof ZItem>;
export type QuestionnaireRule = z.infer<typeof ZRule>;
export type QuestionnaireDocument = z.infer<typeof ZQuestionnaireDocument>;

// The stored shape (db/schema/intake.ts) and the validated one must stay the same type, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<QuestionnaireDocument, QuestionnaireDocumentShape> = true;
void sameShape;
