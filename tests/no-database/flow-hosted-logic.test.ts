import { describe, expect, it } from 'vitest';
import { checkContact, EMPTY_CONTACT } from '@/components/flows/contact-form';
import { afterStep, factStep, firstClinicalStepId, outcomeView, positionOf, previousStepId, problemsOf, quizItems, reachableStep, resumeStage } from '@/components/flows/flow-progress';
import { checkForm, rawOf, toAnswers } from '@/components/intake/answers';
import type { PublicFlow, SessionState } from '@/components/flows/types';

/* The hosted flow's state machine (components/flows/flow-progress.ts): pure, so tested without a browser. */

const DEF: PublicFlow = {
  flowId: 'flw_1',
  versionId: 'fv_1',
  sandbox: true,
  theme: { cssVariables: { '--nl-flow-primary': '#0f766e' } },
  questionnaire: { key: 'weight', version: 1 },
  steps: [
    { id: 'welcome', kind: 'landing', blocks: { headline: 'Hello', cta: 'Start' } },
    { id: 'goals', kind: 'quiz', blocks: { title: 'Goals' }, questions: [{ id: 'why', text: 'Why?', type: 'choice', required: true, options: [{ value: 'a', label: 'A' }] }] },
    { id: 'body', kind: 'medical', title: 'About you', items: [{ linkId: 'dob', text: 'Date of birth', type: 'date', required: true }] },
    { id: 'contact', kind: 'contact', title: 'Contact', fields: ['name', 'email', 'state', 'dateOfBirth'], prefill: {} },
    { id: 'result', kind: 'outcome', blocks: { eligibleTitle: 'Good news', eligibleBody: 'A clinician reviews.', disqualifiedTitle: 'Sorry', disqualifiedBody: 'See your doctor.', cta: 'Pay' } },
  ],
};

const session = (over: Partial<SessionState>): SessionState => ({
  sessionId: 'fs_1',
  versionId: 'fv_1',
  status: 'open',
  completedStepIds: [],
  nextStepId: 'welcome',
  arm: null,
  variantKey: null,
  definition: DEF,
  outcome: null,
  answers: null,
  ...over,
});

describe('flow progress', () => {
  it('counts the steps a patient answers, not the outcome page', () => {
    expect(positionOf(DEF, 'welcome')).toEqual({ index: 1, count: 4 });
    expect(positionOf(DEF, 'contact')).toEqual({ index: 4, count: 4 });
    expect(positionOf(DEF, 'result')).toBeNull();
  });

  it('submits when the server names no next step or the outcome page', () => {
    expect(afterStep(DEF, 'body')).toEqual({ submit: false, stepId: 'body' });
    expect(afterStep(DEF, null)).toEqual({ submit: true });
    expect(afterStep(DEF, 'result')).toEqual({ submit: true });
    expect(afterStep(DEF, 'unknown')).toEqual({ submit: true });
  });

  it('resumes at the next step, at the contact step when ready to submit (name and e-mail are never stored), or at the outcome', () => {
    expect(resumeStage(session({ nextStepId: 'body', completedStepIds: ['welcome', 'goals'] }))).toEqual({ name: 'step', stepId: 'body' });
    expect(resumeStage(session({ nextStepId: null, completedStepIds: ['welcome', 'goals', 'body', 'contact'] }))).toEqual({ name: 'step', stepId: 'contact' });
    const done = resumeStage(session({ status: 'completed', nextStepId: null, outcome: { verdict: 'disqualified', message: 'Not available through this clinic.', title: '', body: '' } }));
    // The eligible page's button (cta) has no place on a disqualified page, which names no other destination here.
    expect(done).toEqual({ name: 'outcome', outcome: { verdict: 'disqualified', title: 'Sorry', body: 'See your doctor.', message: 'Not available through this clinic.', patientMessages: [] } });
    // A completed session read back carries the copy the run was shown (the arm's, in an experiment).
    const armed = resumeStage(session({ status: 'completed', nextStepId: null, outcome: { verdict: 'eligible', message: 'm', title: 'Variant win', body: 'Variant body' } }));
    expect(armed).toMatchObject({ outcome: { title: 'Variant win', body: 'Variant body' } });
  });

  it('goes back along the session path: the step before, none on the first step or off the path', () => {
    expect(previousStepId(DEF, 'goals')).toBe('welcome');
    expect(previousStepId(DEF, 'contact')).toBe('body');
    expect(previousStepId(DEF, 'welcome')).toBeNull();
    expect(previousStepId(DEF, 'result')).toBeNull();
    expect(previousStepId(DEF, 'unknown')).toBeNull();
    // An arm's definition carries its own order (an experiment may reorder presentation steps), and an outcome
    // page in the middle is not on the path, as the server's next-step walk skips it.
    const [welcome, goals, body, contact, result] = DEF.steps;
    const arm = { ...DEF, steps: [goals!, welcome!, result!, body!, contact!] };
    expect(previousStepId(arm, 'welcome')).toBe('goals');
    expect(previousStepId(arm, 'body')).toBe('welcome');
    expect(previousStepId(arm, 'goals')).toBeNull();
    expect(afterStep(arm, 'body', 'goals')).toEqual({ submit: false, stepId: 'welcome' });
  });

  it('after a step saved again, walks forward through answered steps but never past the first unsaved one', () => {
    // Went back from "body" to "welcome": the server's next is still "body", the step after "welcome" is "goals".
    expect(afterStep(DEF, 'body', 'welcome')).toEqual({ submit: false, stepId: 'goals' });
    expect(afterStep(DEF, 'body', 'goals')).toEqual({ submit: false, stepId: 'body' });
    // Every step saved: the pages after the one saved again are walked, the last one submits.
    expect(afterStep(DEF, null, 'goals')).toEqual({ submit: false, stepId: 'body' });
    expect(afterStep(DEF, null, 'contact')).toEqual({ submit: true });
    expect(afterStep(DEF, 'result', 'contact')).toEqual({ submit: true });
    // The normal forward walk is the server's answer.
    expect(afterStep(DEF, 'goals', 'welcome')).toEqual({ submit: false, stepId: 'goals' });
    // Never ahead of the server: a step not saved yet is not skipped.
    expect(afterStep(DEF, 'goals', 'body')).toEqual({ submit: false, stepId: 'goals' });
  });

  it('resumes on the step the patient went back to, but never past the server next step', () => {
    const midway = session({ nextStepId: 'body', completedStepIds: ['welcome', 'goals'] });
    expect(resumeStage(midway, 'goals')).toEqual({ name: 'step', stepId: 'goals' });
    expect(resumeStage(midway, 'body')).toEqual({ name: 'step', stepId: 'body' });
    expect(resumeStage(midway, 'contact')).toEqual({ name: 'step', stepId: 'body' });
    expect(resumeStage(midway, 'result')).toEqual({ name: 'step', stepId: 'body' });
    expect(resumeStage(midway, 'gone')).toEqual({ name: 'step', stepId: 'body' });
    expect(resumeStage(midway, null)).toEqual({ name: 'step', stepId: 'body' });
    const ready = session({ nextStepId: null, completedStepIds: ['welcome', 'goals', 'body', 'contact'] });
    expect(resumeStage(ready, 'goals')).toEqual({ name: 'step', stepId: 'goals' });
    expect(resumeStage(ready, null)).toEqual({ name: 'step', stepId: 'contact' });
    const done = session({ status: 'completed', nextStepId: null, outcome: { verdict: 'eligible', message: 'm', title: 'T', body: 'B' } });
    expect(resumeStage(done, 'goals')).toMatchObject({ name: 'outcome' });
  });

  it('shows a page again as it was answered (the form values of the answers sent)', () => {
    const items = [
      { linkId: 'dob', text: 'Date of birth', type: 'date' as const, required: true },
      { linkId: 'pregnant', text: 'Pregnant?', type: 'boolean' as const, required: true },
      { linkId: 'weight', text: 'Weight', type: 'decimal' as const, required: true },
      { linkId: 'kids', text: 'Children', type: 'integer' as const, required: false },
      { linkId: 'why', text: 'Why?', type: 'multi_choice' as const, required: false, options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] },
    ];
    const answers = { dob: '1984-06-02', pregnant: false, weight: 81.5, kids: 0, why: ['a', 'b'] };
    const raw = rawOf(answers);
    expect(raw).toEqual({ dob: '1984-06-02', pregnant: 'false', weight: '81.5', kids: '0', why: ['a', 'b'] });
    expect(toAnswers(items, raw)).toEqual(answers);
    expect(rawOf({ odd: { nested: true }, none: null })).toEqual({});
  });

  it('names an exclusive option ticked beside another before sending (decision 46)', () => {
    const items = [
      { linkId: 'why', text: 'Why?', type: 'multi_choice' as const, required: true, options: [{ value: 'a', label: 'A' }, { value: 'none', label: 'None of these', exclusive: true }] },
    ];
    const shown = new Set(['why']);
    expect(checkForm(items, { why: ['a', 'none'] }, shown)).toEqual({ why: 'Choose “None of these” on its own, or the other options without it.' });
    expect(checkForm(items, { why: ['none'] }, shown)).toEqual({});
    expect(checkForm(items, { why: ['a'] }, shown)).toEqual({});
  });

  it("shows the flow's copy for the verdict, the server's copy when it sends its own, and the checkout link", () => {
    expect(outcomeView(DEF, { verdict: 'eligible', message: 'A provider will review.', checkoutUrl: 'https://shop.example/c?fr_token=x' })).toMatchObject({
      title: 'Good news',
      body: 'A clinician reviews.',
      checkoutUrl: 'https://shop.example/c?fr_token=x',
      action: { href: 'https://shop.example/c?fr_token=x', label: 'Pay', checkout: true },
    });
    // Without a checkout or a clinic page, the label alone has nowhere to lead: no button, the label is said as the next step.
    expect(outcomeView(DEF, { verdict: 'eligible', message: 'm' })).not.toHaveProperty('action');
    expect(outcomeView(DEF, { verdict: 'eligible', message: 'm' }).nextStep).toBe('Pay');
    expect(outcomeView(DEF, { verdict: 'disqualified', message: 'm' })).not.toHaveProperty('nextStep');
    expect(outcomeView(DEF, { verdict: 'eligible', message: 'm', title: 'Variant title', body: 'Variant body' })).toMatchObject({ title: 'Variant title', body: 'Variant body' });
    const bare = { ...DEF, steps: DEF.steps.filter((s) => s.kind !== 'outcome') };
    expect(outcomeView(bare, { verdict: 'disqualified', message: 'm' }).title).toBe('Thank you for your answers');
    // Without outcome copy the service's sentence is said once: a disqualified run's body, nothing for an eligible one.
    expect(outcomeView(bare, { verdict: 'disqualified', message: 'm', title: 'Thank you', body: 'm', patientMessages: ['Adults only.'] })).toMatchObject({ body: 'm', patientMessages: ['Adults only.'] });
    expect(outcomeView(bare, { verdict: 'eligible', message: 'm', title: 'Thank you', body: 'm', reference: 'ABCD-EFGH' })).toMatchObject({ title: 'Thank you, your answers were sent', body: '', reference: 'ABCD-EFGH' });
    const linked = DEF.steps.map((s) => (s.kind === 'outcome' ? { ...s, blocks: { ...s.blocks, ctaUrl: 'https://clinic.example/next', disqualifiedCta: 'Find a clinic', disqualifiedUrl: 'https://clinic.example/other' } } : s));
    expect(outcomeView({ ...DEF, steps: linked }, { verdict: 'eligible', message: 'm' }).action).toEqual({ href: 'https://clinic.example/next', label: 'Pay', checkout: false });
    expect(outcomeView({ ...DEF, steps: linked }, { verdict: 'eligible', message: 'm' })).not.toHaveProperty('nextStep');
    expect(outcomeView({ ...DEF, steps: linked }, { verdict: 'disqualified', message: 'm' }).action).toEqual({ href: 'https://clinic.example/other', label: 'Find a clinic', checkout: false });
    expect(firstClinicalStepId(DEF)).toBe('body');
  });

  it('renders quiz questions through the questionnaire renderer', () => {
    expect(quizItems((DEF.steps[1] as Extract<PublicFlow['steps'][number], { kind: 'quiz' }>).questions)).toEqual([
      { linkId: 'why', text: 'Why?', type: 'choice', required: true, options: [{ value: 'a', label: 'A' }] },
    ]);
  });

  it('turns a refusal into problems by field, never repeating what the server said', () => {
    expect(problemsOf({ status: 400, code: 'invalid_answer', params: ['answers.dob', 'answers.height'] })).toEqual({
      dob: 'This answer is not valid. Check it and try again.',
      height: 'This answer is not valid. Check it and try again.',
    });
    expect(problemsOf({ status: 400, params: ['answers.email'] })).toHaveProperty('email');
    expect(problemsOf({ status: 429, params: [] }).form).toMatch(/Too many attempts/);
    expect(problemsOf({ status: 0, params: [] }).form).toMatch(/connection/);
    expect(problemsOf({ status: 500, params: [] }).form).toMatch(/could not save/);
  });

  it('names the step of the earlier answer a contact detail differs from (decision 44)', () => {
    const withFacts = { ...DEF, steps: DEF.steps.map((s) => (s.kind === 'contact' ? { ...s, prefill: { dateOfBirth: 'dob' } } : s)) };
    expect(factStep(withFacts, 'dateOfBirth')).toEqual({ stepId: 'body', title: 'About you' });
    expect(factStep(withFacts, 'state')).toBeNull();
    const mismatch = { status: 400, code: 'fact_mismatch', params: ['answers.dateOfBirth'] };
    expect(problemsOf(mismatch, withFacts).dateOfBirth).toBe('This differs from your answer on the step “About you”. Use the same one here, or go to that step and change it there.');
    expect(problemsOf({ ...mismatch, params: ['patient.dateOfBirth'] }, withFacts).dateOfBirth).toMatch(/“About you”/);
    // A flow whose contact step names no earlier item: the message says so without a step.
    expect(problemsOf(mismatch, DEF).dateOfBirth).toMatch(/^This differs from the answer you gave earlier/);
  });

  it("lets the browser's Back and Forward show a step only as far as the run has reached", () => {
    // No session yet: the first step only.
    expect(reachableStep(DEF, 'body', undefined)).toBe('welcome');
    expect(reachableStep(DEF, 'welcome', 'body')).toBe('welcome');
    expect(reachableStep(DEF, 'body', 'body')).toBe('body');
    // A step not saved yet past the server's next one is never shown: the next one is.
    expect(reachableStep(DEF, 'contact', 'body')).toBe('body');
    // Everything saved: any step the patient answers, never the outcome page.
    expect(reachableStep(DEF, 'contact', null)).toBe('contact');
    expect(reachableStep(DEF, 'result', null)).toBe('welcome');
    expect(reachableStep(DEF, 'result', 'goals')).toBe('goals');
  });

  it("checks the contact details before they are sent", () => {
    const ok = { name: 'Ada Lovelace', email: 'ada@example.org', state: 'CA', dateOfBirth: '1980-02-03', phone: '(415) 555-0134', addressLine1: '1 Market St', addressLine2: '', city: 'San Francisco', postalCode: '94105', smsConsent: false };
    expect(checkContact(ok, '2026-11-26')).toEqual({});
    expect(Object.keys(checkContact({ ...EMPTY_CONTACT, name: ' ', email: 'nope' }, '2026-11-26')).sort()).toEqual(['addressLine1', 'city', 'dateOfBirth', 'email', 'name', 'phone', 'postalCode', 'state']);
    expect(checkContact({ ...ok, postalCode: '9410' }, '2026-11-26').postalCode).toMatch(/ZIP/);
    expect(checkContact({ ...ok, phone: '555-01' }, '2026-11-26').phone).toMatch(/phone/);
    expect(checkContact({ ...ok, dateOfBirth: '2030-01-01' }, '2026-11-26').dateOfBirth).toMatch(/past/);
  });
});
