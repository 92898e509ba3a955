import type { PatientItem } from '@/components/intake/types';
import type { FieldErrors } from '@/components/intake/types';
import type { PublicFlow, PublicQuizQuestion, SessionOutcome, SessionState, StepOf, SubmitResult } from './types';

/*
 * The hosted flow's state machine, as pure functions (the component only holds the state and calls the API):
 * where a patient goes after a saved step, where a resumed session picks up, what an outcome page says.
 */

export type Stage =
  | { name: 'step'; stepId: string }
  | { name: 'outcome'; outcome: OutcomeView }
  | { name: 'expired' };

export interface OutcomeView {
  verdict: 'eligible' | 'disqualified';
  title: string;
  /** The clinic's copy for the verdict; empty when the flow has none (the service's sentence is then not repeated as copy). */
  body: string;
  message: string;
  checkoutUrl?: string;
  /** The button: the checkout handoff, else the clinic's page the outcome step names for the verdict. */
  action?: { href: string; label: string; checkout: boolean };
  /** The eligible button's label when it leads nowhere (no checkout, no page): said as the next step, not dropped. */
  nextStep?: string;
  reference?: string;
  patientMessages: string[];
}

/** Steps a patient answers, in order: every step but the outcome page. */
export const answerableSteps = (def: PublicFlow) => def.steps.filter((s) => s.kind !== 'outcome');

export const stepById = (def: PublicFlow, id: string | null | undefined) => (id ? def.steps.find((s) => s.id === id) : undefined);

export function firstStepId(def: PublicFlow): string | null {
  return answerableSteps(def)[0]?.id ?? null;
}

/** "Step 2 of 5" of a step (1-based), or null for the outcome page. */
export function positionOf(def: PublicFlow, stepId: string): { index: number; count: number } | null {
  const steps = answerableSteps(def);
  const i = steps.findIndex((s) => s.id === stepId);
  return i < 0 ? null : { index: i + 1, count: steps.length };
}

/** A step's place on the session's path (the answerable steps in the order of its arm), or -1 off the path. */
const placeOf = (def: PublicFlow, stepId: string | null | undefined) => (stepId ? answerableSteps(def).findIndex((s) => s.id === stepId) : -1);

/**
 * Where "Back" leads: the step before this one on the session's path, which is the order the server's
 * `nextStepId` walks (the definition a session gets is its arm's, so an experiment's reordering is already in
 * it; outcome pages are never on it). Null on the first step and off the path (outcome, unknown id).
 */
export function previousStepId(def: PublicFlow, stepId: string): string | null {
  const at = placeOf(def, stepId);
  return at > 0 ? answerableSteps(def)[at - 1]!.id : null;
}

/**
 * After a saved step, the server names the next one: the first step not saved yet; null (or the outcome page,
 * which has nothing to answer) means the run is ready to be submitted. A step saved again after going back
 * (`from`) leads to the step after it instead, so the patient walks forward through the pages already answered,
 * but never past the server's next one: a step not saved yet is never skipped.
 */
export function afterStep(def: PublicFlow, nextStepId: string | null, from?: string): { submit: true } | { submit: false; stepId: string } {
  const steps = answerableSteps(def);
  const serverAt = placeOf(def, nextStepId);
  const fromAt = placeOf(def, from);
  const following = fromAt >= 0 ? steps[fromAt + 1] : undefined;
  if (following && (serverAt < 0 || fromAt + 1 < serverAt)) return { submit: false, stepId: following.id };
  return serverAt < 0 ? { submit: true } : { submit: false, stepId: steps[serverAt]!.id };
}

/**
 * The contact step, where the patient's name and e-mail for the submission are asked. They are held in memory
 * (never in storage); a run resumed after a refresh has them again from the session's own answers while the
 * server still gives those back (live mode: sandbox holds no name), else asks them again there before submitting.
 */
export const contactStep = (def: PublicFlow) => def.steps.find((s): s is StepOf<'contact'> => s.kind === 'contact');

/** The first page with clinical questions: where an incomplete run is sent back to. */
export const firstClinicalStepId = (def: PublicFlow) => def.steps.find((s) => s.kind === 'medical' || s.kind === 'consent' || s.kind === 'contact')?.id ?? firstStepId(def);

const FALLBACK_TITLE = { eligible: 'Thank you, your answers were sent', disqualified: 'Thank you for your answers' };

/** The outcome step's button for the verdict: eligible → the checkout handoff, else the clinic's page; not eligible → where to go instead. */
function actionOf(page: StepOf<'outcome'> | undefined, verdict: OutcomeView['verdict'], checkoutUrl?: string): OutcomeView['action'] {
  if (verdict === 'eligible') {
    if (checkoutUrl) return { href: checkoutUrl, label: page?.blocks.cta ?? 'Continue to checkout', checkout: true };
    if (page?.blocks.ctaUrl) return { href: page.blocks.ctaUrl, label: page.blocks.cta ?? 'Continue', checkout: false };
    return undefined;
  }
  return page?.blocks.disqualifiedUrl ? { href: page.blocks.disqualifiedUrl, label: page.blocks.disqualifiedCta ?? 'See other options', checkout: false } : undefined;
}

/**
 * The outcome page: the copy the server sends for the verdict (the flow's, of the session's arm), else the
 * definition's; the button, the reference and the rules' patient messages. A flow without outcome copy gets
 * the service's patient-safe sentence once: as the body of a disqualified run (it says what the verdict
 * means), and not at all for an eligible one, whose "what happens next" already says it.
 */
export function outcomeView(
  def: PublicFlow,
  result: Pick<SessionOutcome, 'verdict' | 'message'> &
    Partial<Pick<SessionOutcome, 'title' | 'body' | 'reference' | 'patientMessages'>> &
    Partial<Pick<SubmitResult, 'checkoutUrl'>>,
): OutcomeView {
  const verdict = result.verdict === 'eligible' ? 'eligible' : 'disqualified';
  const page = def.steps.find((s): s is StepOf<'outcome'> => s.kind === 'outcome');
  // The server's copy is the session's arm's; without an outcome step its body is its own sentence, not clinic copy.
  const copy = page
    ? verdict === 'eligible'
      ? { title: result.title || page.blocks.eligibleTitle, body: result.body || page.blocks.eligibleBody }
      : { title: result.title || page.blocks.disqualifiedTitle, body: result.body || page.blocks.disqualifiedBody }
    : { title: FALLBACK_TITLE[verdict], body: verdict === 'disqualified' ? result.message : '' };
  const action = actionOf(page, verdict, result.checkoutUrl);
  const nextStep = !action && verdict === 'eligible' ? page?.blocks.cta : undefined;
  return {
    verdict,
    title: copy.title,
    body: copy.body,
    message: result.message,
    ...(result.checkoutUrl ? { checkoutUrl: result.checkoutUrl } : {}),
    ...(action ? { action } : {}),
    ...(nextStep ? { nextStep } : {}),
    ...(result.reference ? { reference: result.reference } : {}),
    patientMessages: result.patientMessages ?? [],
  };
}

/**
 * Where the browser's Back or Forward may show `stepId` (an entry of the history, step-history.ts): a step on the
 * session's path up to the server's next step (`frontier`; null when every step is saved, undefined before the
 * session is known, when only the first step is), never one not saved yet; else that next step.
 */
export function reachableStep(def: PublicFlow, stepId: string, frontier: string | null | undefined): string {
  const first = firstStepId(def) ?? stepId;
  const limit = frontier === undefined ? 0 : frontier === null ? Infinity : placeOf(def, frontier);
  const at = placeOf(def, stepId);
  if (at >= 0 && at <= limit) return stepId;
  return frontier && limit >= 0 ? frontier : first;
}

/**
 * Where a session read back after a refresh continues: its outcome; else the step the patient was on (`pointer`,
 * kept in storage, which moves back with "Back") when it is on the path and not past the server's next step;
 * else the server's next step, or (ready to submit) the contact step.
 */
export function resumeStage(session: SessionState, pointer?: string | null): Stage {
  const def = session.definition;
  if (session.status === 'completed' && session.outcome && session.outcome.verdict !== 'incomplete') return { name: 'outcome', outcome: outcomeView(def, session.outcome) };
  const next = afterStep(def, session.nextStepId);
  const at = placeOf(def, pointer);
  if (pointer && at >= 0 && (next.submit || at <= placeOf(def, next.stepId))) return { name: 'step', stepId: pointer };
  if (!next.submit) return { name: 'step', stepId: next.stepId };
  const id = contactStep(def)?.id ?? firstStepId(def);
  return id ? { name: 'step', stepId: id } : { name: 'expired' };
}

/** A quiz's marketing questions through the questionnaire renderer (same controls, labels and errors). */
export function quizItems(questions: readonly PublicQuizQuestion[]): PatientItem[] {
  return questions.map((q) => ({ linkId: q.id, text: q.text, type: q.type, required: q.required, ...(q.options ? { options: q.options } : {}) }));
}


export interface ApiProblem {
  status: number;
  code?: string;
  params: string[];
}

/** The field a refusal names: `answers.<id>` → the question (or contact field), `patient.<field>` → the contact field. */
export const fieldsOf = (problem: ApiProblem) =>
  problem.params.map((p) => (p.startsWith('answers.') ? p.slice('answers.'.length).split('.')[0]! : p.startsWith('patient.') ? p.slice('patient.'.length) : '')).filter(Boolean);

/** Contact fields that an earlier answer gives (DESIGN decision 31): a different value is refused as `fact_mismatch`. */
const FACT_FIELDS = ['dateOfBirth', 'state'] as const;
export type FactField = (typeof FACT_FIELDS)[number];
export const isFactField = (id: string): id is FactField => (FACT_FIELDS as readonly string[]).includes(id);

/**
 * The page where the patient answered the question a contact field must agree with (DESIGN decision 44: a
 * mismatch names it and leads there): the medical step asking the item the contact step is prefilled from.
 */
export function factStep(def: PublicFlow, field: FactField): { stepId: string; title: string } | null {
  const linkId = contactStep(def)?.prefill[field];
  const step = linkId ? def.steps.find((s): s is StepOf<'medical'> => s.kind === 'medical' && s.items.some((i) => i.linkId === linkId)) : undefined;
  return step ? { stepId: step.id, title: step.title } : null;
}

/**
 * A refused step in the patient's words, by field (`answers.<id>` → the question), else for the whole form. A
 * date of birth or state that differs from the questionnaire's answer (decision 31) is said as such, naming the
 * step where that answer was given (the page adds a way there, `factStep`).
 */
export function problemsOf(problem: ApiProblem, def?: PublicFlow): FieldErrors {
  if (problem.status === 429) return { form: 'Too many attempts. Wait a minute, then try again.' };
  const found: FieldErrors = {};
  const mismatch = (id: string) => {
    const where = def && isFactField(id) ? factStep(def, id) : null;
    return where
      ? `This differs from your answer on the step “${where.title}”. Use the same one here, or go to that step and change it there.`
      : 'This differs from the answer you gave earlier in this form. Use the same one, or go back and change that answer.';
  };
  for (const id of fieldsOf(problem)) found[id] = problem.code === 'fact_mismatch' ? mismatch(id) : 'This answer is not valid. Check it and try again.';
  if (Object.keys(found).length) return found;
  if (problem.status === 0) return { form: 'We could not reach the clinic. Check your connection and try again.' };
  return { form: 'We could not save your answers. Please try again.' };
}
