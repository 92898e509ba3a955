import * as z from '@/server/lib/zod';
import { ZPatientQuestionnaire, zEmbedKey } from '@/server/api/routers/intake/public-intake.types';
import { CONTACT_FIELDS, QUIZ_QUESTION_TYPES } from '@/server/domain/flows/shared/shapes';
import { checkedOnce } from '@/server/api/checked-once';

// What patients' pages receive of a flow: copy, theme, step order and question shapes; never rules or settings.
const ZOption = z.object({ value: z.string(), label: z.string() });
const ZPublicStep = z.discriminatedUnion('kind', [
  z.object({ id: z.string(), kind: z.literal('landing'), blocks: z.object({ headline: z.string(), body: z.string().optional(), cta: z.string().optional() }) }),
  z.object({
    id: z.string(),
    kind: z.literal('quiz'),
    blocks: z.object({ title: z.string(), body: z.string().optional(), cta: z.string().optional() }),
    questions: z.array(z.object({ id: z.string(), text: z.string(), type: z.enum(QUIZ_QUESTION_TYPES), required: z.boolean(), options: z.array(ZOption).optional() })),
  }),
  z.object({
    id: z.string(),
    kind: z.literal('outcome'),
    blocks: z.object({
      eligibleTitle: z.string(),
      eligibleBody: z.string(),
      disqualifiedTitle: z.string(),
      disqualifiedBody: z.string(),
      cta: z.string().optional().meta({ description: "The eligible page's button: to checkoutUrl when the submit returns one, else to ctaUrl" }),
      ctaUrl: z.string().optional().meta({ description: "The clinic's page the eligible page's button opens (without a checkout handoff)" }),
      disqualifiedCta: z.string().optional(),
      disqualifiedUrl: z.string().optional().meta({ description: 'Where a patient who is not eligible can go instead' }),
    }),
  }),
  z.object({ id: z.string(), kind: z.literal('medical'), title: z.string(), items: ZPatientQuestionnaire.shape.items.meta({ description: 'Questionnaire items of this page, in questionnaire order' }) }),
  z.object({ id: z.string(), kind: z.literal('consent'), title: z.string(), text: z.string(), version: z.string().meta({ description: 'Send it back with accepted: true' }) }),
  z.object({
    id: z.string(),
    kind: z.literal('contact'),
    title: z.string(),
    fields: z.array(z.enum(CONTACT_FIELDS)),
    prefill: z
      .object({ dateOfBirth: z.string().optional(), state: z.string().optional() })
      .meta({ description: 'The medical item (linkId) whose answer prefills the date of birth or state; a different value is refused at save' }),
  }),
]);

// Checked once per served object: definitions are cached per version and frozen (server/api/checked-once.ts).
export const ZPublicFlow = checkedOnce(
  z
    .object({
      flowId: z.string(),
      versionId: z.string().meta({ description: 'The published version (fv_…) this definition is' }),
      sandbox: z.boolean(),
      theme: z.object({ cssVariables: z.record(z.string(), z.string()).meta({ description: 'Theme tokens as CSS custom properties named --nl-flow-*' }) }),
      steps: z.array(ZPublicStep),
      questionnaire: z.object({ key: z.string(), version: z.number().int() }),
    })
    .meta({ id: 'PublicFlow', description: 'The patient-safe definition of a published flow version: no rules, rule ids, disqualifier logic or settings' }),
);

export const ZArm = z.enum(['control', 'variant']).nullable().meta({ description: 'The experiment arm the session was assigned; null when no experiment runs' });
export const zSessionId = z.string().min(1).max(100).meta({ description: 'The session id (fs_…): the bearer secret of this run' });
export { zEmbedKey };

export const ZRunVerdict = z.enum(['eligible', 'disqualified', 'incomplete']);
export const ZOutcomeCopy = {
  message: z.string().meta({ description: 'What to tell the patient' }),
  title: z.string().meta({ description: "The flow's outcome title for the verdict" }),
  body: z.string().meta({ description: "The flow's outcome text for the verdict" }),
  reference: z.string().optional().meta({ description: 'The short reference of the recorded submission (e.g. 7KQ2-M9XD), for the patient to quote; not an id, no PHI' }),
  patientMessages: z
    .array(z.string())
    .optional()
    .meta({ description: "The clinic's messages of the matched rules: a disqualified run's reason, an eligible run's review flags" }),
};

export const PUBLIC_FLOW_ERRORS = {
  403: 'Origin not allowed for this live key (origin_not_allowed)',
  404: 'Unknown or revoked embed key, or a key serving no published flow',
  429: 'Too many requests for this key from this address',
};
export const SESSION_ERRORS = { ...PUBLIC_FLOW_ERRORS, 404: 'Unknown, revoked or flow-less embed key; or a session that is unknown, expired or of another key' };
