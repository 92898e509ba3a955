import { CONTACT_FIELDS, isClinicalStep, type FlowStepKind, type FlowStepShape } from '@/server/domain/flows/shared/shapes';

/** Pure helpers of the editor's step list (no React): new steps, moves, and naming what an error points at. */

export const KIND_LABEL: Record<FlowStepKind, string> = {
  landing: 'Landing',
  quiz: 'Quiz',
  outcome: 'Outcome',
  medical: 'Medical questions',
  consent: 'Consent',
  contact: 'Contact details',
};

export const isClinical = isClinicalStep;

type ContactField = (typeof CONTACT_FIELDS)[number];
/** Each contact field in a reviewer's words; the address's parts are named inside "shipping address". */
const CONTACT_WORDS: Record<ContactField, string> = {
  name: 'full name',
  email: 'e-mail',
  phone: 'phone',
  smsConsent: 'consent to text messages (optional)',
  dateOfBirth: 'date of birth',
  addressLine1: 'street',
  addressLine2: 'apartment or unit (optional)',
  city: 'city',
  state: 'state',
  postalCode: 'ZIP code',
};
const ADDRESS_PARTS: readonly ContactField[] = ['addressLine1', 'addressLine2', 'city', 'state', 'postalCode'];
const PERSON_ORDER: readonly ContactField[] = ['name', 'email', 'phone', 'smsConsent', 'dateOfBirth'];

/**
 * What a contact step asks the patient, in one line a provider or admin reads (the approval diff, the theme
 * preview): every field of CONTACT_FIELDS, the person's first, then the shipping address and its parts.
 */
export function contactStepSummary(fields: readonly ContactField[] = CONTACT_FIELDS): string {
  const person = PERSON_ORDER.filter((f) => fields.includes(f)).map((f) => CONTACT_WORDS[f]);
  const address = ADDRESS_PARTS.filter((f) => fields.includes(f)).map((f) => CONTACT_WORDS[f]);
  const parts = address.length ? [...person, `shipping address (${address.join(', ')})`] : person;
  const line = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? 'nothing');
  return `${line.charAt(0).toUpperCase()}${line.slice(1)}.`;
}

function freshId(kind: FlowStepKind, taken: readonly string[]): string {
  for (let n = 1; ; n++) {
    const id = `${kind}-${n}`;
    if (!taken.includes(id)) return id;
  }
}

/** A new step of `kind` with placeholder copy the team then rewrites; a medical page starts with no questions. */
export function newStep(kind: FlowStepKind, taken: readonly string[]): FlowStepShape {
  const id = freshId(kind, taken);
  switch (kind) {
    case 'landing':
      return { id, kind, blocks: { headline: 'A headline for this page', cta: 'Continue' } };
    case 'quiz':
      return { id, kind, blocks: { title: 'A quick question', cta: 'Next' }, questions: [{ id: 'q1', text: 'What brings you here?', type: 'string', required: false }] };
    case 'outcome':
      return {
        id,
        kind,
        blocks: {
          eligibleTitle: 'You may be a good fit',
          eligibleBody: 'A licensed provider will review your answers.',
          disqualifiedTitle: 'This treatment may not be right for you',
          disqualifiedBody: 'Please talk to your doctor about other options.',
        },
      };
    case 'medical':
      return { id, kind, title: 'Health questions', linkIds: [] };
    case 'consent':
      return { id, kind, title: 'Consent', text: 'I agree to be assessed by a licensed provider through telehealth.', version: 'v1' };
    case 'contact':
      return { id, kind, title: 'Your details' };
  }
}

/** Inserts a step: an outcome goes last (it must), anything else before the outcome if there is one. */
export function addStep(steps: readonly FlowStepShape[], step: FlowStepShape): FlowStepShape[] {
  const outcomeAt = steps.findIndex((s) => s.kind === 'outcome');
  if (step.kind === 'outcome' || outcomeAt < 0) return [...steps, step];
  return [...steps.slice(0, outcomeAt), step, ...steps.slice(outcomeAt)];
}

export function moveStep(steps: readonly FlowStepShape[], from: number, to: number): FlowStepShape[] {
  if (to < 0 || to >= steps.length || from === to) return [...steps];
  const next = [...steps];
  const [step] = next.splice(from, 1);
  next.splice(to, 0, step);
  return next;
}

/**
 * The step an API error's `param` points at: `document.steps.3.blocks.headline`, `steps.3`, or
 * `stepPatches.0.stepId` (a patch names its step by id, in the patch list the editor sent).
 */
export function stepOfParam(param: string | undefined, steps: readonly FlowStepShape[], patchedIds: readonly string[] = []): number | undefined {
  if (!param) return undefined;
  const direct = /(?:^|\.)steps\.(\d+)(?:\.|$)/.exec(param);
  if (direct) return Number(direct[1]) < steps.length ? Number(direct[1]) : undefined;
  const patch = /^stepPatches\.(\d+)(?:\.|$)/.exec(param);
  if (patch) {
    const id = patchedIds[Number(patch[1])];
    const at = steps.findIndex((s) => s.id === id);
    return at >= 0 ? at : undefined;
  }
  return undefined;
}

/** A step's one-line name in lists and messages: its kind and id. */
export const stepName = (step: FlowStepShape, index: number) => `Step ${index + 1} · ${KIND_LABEL[step.kind]} “${step.id}”`;

