/**
 * A flow version's document as stored and as the patient's browser reads it (DESIGN decision 23), in flows'
 * shared rules (pure, no I/O) so db/schema, the domain and components can share it. The zod schema
 * (server/domain/flows/flow-schema.ts) is checked to infer exactly these types.
 */

export const PRESENTATION_STEP_KINDS = ['landing', 'quiz', 'outcome'] as const;
export const CLINICAL_STEP_KINDS = ['medical', 'consent', 'contact'] as const;
export const FLOW_STEP_KINDS = [...PRESENTATION_STEP_KINDS, ...CLINICAL_STEP_KINDS] as const;
export type FlowStepKind = (typeof FLOW_STEP_KINDS)[number];

/** Step ids: what events carry (`step.completed`), so no room for free text. `$` prefixes are reserved. */
export const STEP_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Theme tokens a flow may set; each becomes the CSS variable `--nl-flow-<name>`. */
export const THEME_TOKENS = ['primary', 'primary-contrast', 'background', 'surface', 'text', 'muted', 'error', 'radius', 'font', 'max-width'] as const;
export type ThemeToken = (typeof THEME_TOKENS)[number];

/**
 * The contact step's fields, fixed: what a prescription needs of a new patient, and where to ship it (the
 * address's state is `state`). The first four are required; the address and phone are optional on the wire
 * (flows published before they existed), and the hosted page asks for them. `smsConsent` (true or false, optional)
 * is the patient's consent to text messages at that phone (DESIGN decision 41).
 */
export const CONTACT_FIELDS = ['name', 'email', 'state', 'dateOfBirth', 'phone', 'smsConsent', 'addressLine1', 'addressLine2', 'city', 'postalCode'] as const;

export const QUIZ_QUESTION_TYPES = ['choice', 'multi_choice', 'boolean', 'string'] as const;

export interface QuizQuestionShape {
  id: string;
  text: string;
  type: (typeof QUIZ_QUESTION_TYPES)[number];
  required: boolean;
  options?: { value: string; label: string }[];
}

export interface LandingStepShape {
  id: string;
  kind: 'landing';
  blocks: { headline: string; body?: string; cta?: string };
}
export interface QuizStepShape {
  id: string;
  kind: 'quiz';
  blocks: { title: string; body?: string; cta?: string };
  questions: QuizQuestionShape[];
}
export interface OutcomeStepShape {
  id: string;
  kind: 'outcome';
  blocks: {
    eligibleTitle: string;
    eligibleBody: string;
    disqualifiedTitle: string;
    disqualifiedBody: string;
    /** The eligible page's button label; it leads to the checkout handoff when there is one, else to `ctaUrl`. */
    cta?: string;
    ctaUrl?: string;
    /** Where a patient who is not eligible can go instead: label and https URL of the clinic's page. */
    disqualifiedCta?: string;
    disqualifiedUrl?: string;
  };
}
/** A page of questionnaire items, by linkId. */
export interface MedicalStepShape {
  id: string;
  kind: 'medical';
  title: string;
  linkIds: string[];
}
export interface ConsentStepShape {
  id: string;
  kind: 'consent';
  title: string;
  text: string;
  version: string;
}
export interface ContactStepShape {
  id: string;
  kind: 'contact';
  title: string;
}

export type PresentationStepShape = LandingStepShape | QuizStepShape | OutcomeStepShape;
export type ClinicalStepShape = MedicalStepShape | ConsentStepShape | ContactStepShape;
export type FlowStepShape = PresentationStepShape | ClinicalStepShape;

export interface FlowCheckoutShape {
  storeUrl: string;
  /** Signs `fr_token` and verifies the store's callback; never returned in full by the API. */
  secret: string;
}

export interface FlowSettingsShape {
  questionnaireKey: string;
  /** The protocol an approved run orders; when absent, the questionnaire's own. */
  protocolId?: string;
  checkout?: FlowCheckoutShape;
  conversionPostbacks?: string[];
}

export interface FlowDocumentShape {
  steps: FlowStepShape[];
  theme: { tokens: Partial<Record<ThemeToken, string>> };
  settings: FlowSettingsShape;
}

export const isClinicalStep = (s: FlowStepShape): s is ClinicalStepShape => (CLINICAL_STEP_KINDS as readonly string[]).includes(s.kind);

/** The CSS variable a theme token sets on the hosted page and in the embed. */
export const themeVariable = (token: ThemeToken) => `--nl-flow-${token}`;

/** The reserved step id of an experiment override that patches the whole flow: theme tokens, presentation order. */
export const FLOW_OVERRIDE_ID = '$flow';

/**
 * One override of an experiment's variant (DESIGN decision 27): the `blocks` of a presentation step (as a
 * step patch), or for `$flow` `{theme?: tokens, order?: presentation step ids}`.
 */
export interface ExperimentOverrideShape {
  stepId: string;
  blocks: Record<string, unknown>;
}

/** What a step's heading is read from, in the stored document and in the patient-safe definition alike. */
export type HeadedStep =
  | { kind: 'landing'; blocks: { headline: string } }
  | { kind: 'quiz'; blocks: { title: string } }
  | { kind: 'outcome'; blocks: { eligibleTitle: string } }
  | { kind: 'medical' | 'consent' | 'contact'; title: string };

/** The heading of a step's page (and its line in the console's step list). */
export function stepHeading(step: HeadedStep): string {
  switch (step.kind) {
    case 'landing':
      return step.blocks.headline;
    case 'quiz':
      return step.blocks.title;
    case 'outcome':
      return step.blocks.eligibleTitle;
    default:
      return step.title;
  }
}
