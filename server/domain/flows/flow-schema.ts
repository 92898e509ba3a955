import * as z from '@/server/lib/zod';
import { QUESTIONNAIRE_KEY } from '@/server/domain/intake/questionnaire-schema';
import { isClinicalStep, QUIZ_QUESTION_TYPES, STEP_ID, THEME_TOKENS, type FlowDocumentShape, type ThemeToken } from '@/server/domain/flows/shared/shapes';
import { AppError } from '@/server/lib/errors';

export * from '@/server/domain/flows/shared/shapes';

/**
 * A flow version's document (DESIGN decision 23): steps of the presentation plane (landing, quiz, outcome)
 * and of the clinical plane (medical, consent, contact), theme tokens and settings. The same schema checks a
 * hand-made draft, an AI draft and the seed; `checkFlowStructure` adds the rules zod cannot say.
 */

const stepId = z
  .string()
  .regex(STEP_ID, 'a step id: letters, digits, _ or -, at most 64')
  .refine((v) => !v.startsWith('$'), 'step ids starting with $ are reserved');
const copy = (max: number) => z.string().trim().min(1).max(max);
const ZOption = z.strictObject({ value: z.string().min(1).max(100), label: copy(300) });

// Values become CSS custom properties; no quotes, semicolons, braces or url(), so a value cannot escape.
const ZThemeValue = z
  .string()
  .regex(/^[#A-Za-z0-9 .,%()-]{1,64}$/, 'a CSS value of letters, digits, spaces and # . , % ( ) - only, at most 64')
  .refine((v) => !/url\s*\(|expression\s*\(/i.test(v), 'url() and expression() are not allowed in theme tokens');

export const ZThemeTokens = z.partialRecord(z.enum(THEME_TOKENS), ZThemeValue);

export const ZLandingBlocks = z.strictObject({ headline: copy(200), body: copy(2000).optional(), cta: copy(60).optional() });
export const ZQuizBlocks = z.strictObject({ title: copy(200), body: copy(2000).optional(), cta: copy(60).optional() });
// A page of the clinic's own site a patient is sent to from the outcome page: https only, like the store.
const clinicLink = z.url({ protocol: /^https$/, error: "an https URL of a page on the clinic's site" }).max(2000);

export const ZOutcomeBlocks = z.strictObject({
  eligibleTitle: copy(200),
  eligibleBody: copy(2000),
  disqualifiedTitle: copy(200),
  disqualifiedBody: copy(2000),
  /** The eligible page's button: it opens the checkout handoff when there is one, else `ctaUrl`. */
  cta: copy(60).optional(),
  ctaUrl: clinicLink.optional(),
  /** Where a patient who is not eligible can go instead (the clinic's page of other options). */
  disqualifiedCta: copy(60).optional(),
  disqualifiedUrl: clinicLink.optional(),
});

export const ZQuizQuestion = z.strictObject({
  id: z.string().regex(STEP_ID, 'a question id: letters, digits, _ or -, at most 64'),
  text: copy(500),
  type: z.enum(QUIZ_QUESTION_TYPES),
  required: z.boolean(),
  options: z.array(ZOption).min(1).max(50).optional(),
});

export const ZFlowStep = z.discriminatedUnion('kind', [
  z.strictObject({ id: stepId, kind: z.literal('landing'), blocks: ZLandingBlocks }),
  z.strictObject({ id: stepId, kind: z.literal('quiz'), blocks: ZQuizBlocks, questions: z.array(ZQuizQuestion).min(1).max(20) }),
  z.strictObject({ id: stepId, kind: z.literal('outcome'), blocks: ZOutcomeBlocks }),
  z.strictObject({ id: stepId, kind: z.literal('medical'), title: copy(200), linkIds: z.array(z.string().min(1).max(64)).min(1).max(50) }),
  z.strictObject({ id: stepId, kind: z.literal('consent'), title: copy(200), text: copy(10000), version: z.string().regex(/^[A-Za-z0-9._-]{1,32}$/, 'a version label like 2026-01 or v3') }),
  z.strictObject({ id: stepId, kind: z.literal('contact'), title: copy(200) }),
]);

export const ZFlowCheckout = z.strictObject({
  storeUrl: z.url({ protocol: /^https$/, error: 'an https URL of the clinic store' }).max(2000),
  secret: z.string().min(24).max(200),
});

export const ZFlowSettings = z.strictObject({
  questionnaireKey: z.string().regex(QUESTIONNAIRE_KEY, 'a questionnaire key'),
  protocolId: z.string().regex(/^prt_[0-9a-z]{26}$/, 'a prt_ id').optional(),
  checkout: ZFlowCheckout.optional(),
  conversionPostbacks: z.array(z.url().max(2000)).max(5).optional(),
});

export const ZFlowDocument = z.strictObject({
  steps: z.array(ZFlowStep).min(1).max(30),
  theme: z.strictObject({ tokens: ZThemeTokens }),
  settings: ZFlowSettings,
});

export type FlowDocument = z.infer<typeof ZFlowDocument>;

// The stored shape (db/schema/flows.ts) and the validated one must stay the same type, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShape: Same<FlowDocument, FlowDocumentShape> = true;
void sameShape;
const sameTokens: Same<keyof FlowDocument['theme']['tokens'], ThemeToken> = true;
void sameTokens;

export interface FlowProblem {
  param: string;
  message: string;
}

/**
 * What the schema cannot say: unique step ids and question ids, exactly one contact step, at least one
 * medical step, at most one outcome step and it comes last, a linkId on one medical page only, and choice
 * questions with options. Params name the step (`steps.<i>.…`) and messages its id.
 */
export function flowStructureProblems(doc: FlowDocument): FlowProblem[] {
  const problems: FlowProblem[] = [];
  const seen = new Set<string>();
  const linkIds = new Map<string, string>();
  doc.steps.forEach((step, i) => {
    const at = `steps.${i}`;
    if (seen.has(step.id)) problems.push({ param: `${at}.id`, message: `Step id '${step.id}' is used twice.` });
    seen.add(step.id);
    if (step.kind === 'outcome' && i !== doc.steps.length - 1) problems.push({ param: `${at}.kind`, message: `The outcome step '${step.id}' must be the last step.` });
    if (step.kind === 'outcome' && step.blocks.disqualifiedCta && !step.blocks.disqualifiedUrl) {
      problems.push({ param: `${at}.blocks.disqualifiedUrl`, message: `The outcome step '${step.id}' names a link for patients who are not eligible but not where it leads (disqualifiedUrl).` });
    }
    if (step.kind === 'medical') {
      step.linkIds.forEach((linkId, j) => {
        const other = linkIds.get(linkId);
        if (other) problems.push({ param: `${at}.linkIds.${j}`, message: `Question '${linkId}' is already on medical step '${other}'.` });
        else linkIds.set(linkId, step.id);
      });
    }
    if (step.kind === 'quiz') {
      const ids = new Set<string>();
      step.questions.forEach((question, j) => {
        if (ids.has(question.id)) problems.push({ param: `${at}.questions.${j}.id`, message: `Question id '${question.id}' is used twice on step '${step.id}'.` });
        ids.add(question.id);
        const needsOptions = question.type === 'choice' || question.type === 'multi_choice';
        if (needsOptions !== Boolean(question.options)) {
          problems.push({ param: `${at}.questions.${j}.options`, message: needsOptions ? `Question '${question.id}' on step '${step.id}' needs options.` : `Question '${question.id}' on step '${step.id}' takes no options.` });
        }
      });
    }
  });
  const count = (kind: string) => doc.steps.filter((s) => s.kind === kind).length;
  if (count('contact') !== 1) problems.push({ param: 'steps', message: 'A flow needs exactly one contact step.' });
  if (count('medical') < 1) problems.push({ param: 'steps', message: 'A flow needs at least one medical step.' });
  if (count('outcome') > 1) problems.push({ param: 'steps', message: 'A flow has at most one outcome step.' });
  return problems;
}

/** Parses and checks a document: 400 `invalid_flow` naming the first problem (`param`), the rest in `details`. */
export function parseFlowDocument(input: unknown, prefix = ''): FlowDocument {
  const parsed = ZFlowDocument.safeParse(input);
  const problems: FlowProblem[] = parsed.success
    ? flowStructureProblems(parsed.data)
    : parsed.error.issues.map((i) => ({ param: i.path.join('.') || 'document', message: `${i.path.join('.') || 'document'}: ${i.message}` }));
  if (problems.length === 0 && parsed.success) return parsed.data;
  const named = problems.map((p) => ({ param: prefix ? `${prefix}.${p.param}` : p.param, message: p.message }));
  throw new AppError('validation_error', 'invalid_flow', 400, named[0].message, named[0].param, undefined, named);
}

export const clinicalSteps = (doc: FlowDocumentShape) => doc.steps.filter(isClinicalStep);
