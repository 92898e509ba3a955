import { describe, expect, it } from 'vitest';
import { checkContact } from '@/components/flows/contact-form';
import { afterStep, firstClinicalStepId, outcomeView, positionOf, problemsOf, quizItems, resumeStage } from '@/components/flows/flow-progress';
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
    { id: 'contact', kind: 'contact', title: 'Contact', fields: ['name', 'email', 'state', 'dateOfBirth'] },
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
    expect(done).toEqual({ name: 'outcome', outcome: { verdict: 'disqualified', title: 'Sorry', body: 'See your doctor.', message: 'Not available through this clinic.', cta: 'Pay' } });
    // A completed session read back carries the copy the run was shown (the arm's, in an experiment).
    const armed = resumeStage(session({ status: 'completed', nextStepId: null, outcome: { verdict: 'eligible', message: 'm', title: 'Variant win', body: 'Variant body' } }));
    expect(armed).toMatchObject({ outcome: { title: 'Variant win', body: 'Variant body' } });
  });

  it("shows the flow's copy for the verdict, the server's copy when it sends its own, and the checkout link", () => {
    expect(outcomeView(DEF, { verdict: 'eligible', message: 'A provider will review.', checkoutUrl: 'https://shop.example/c?fr_token=x' })).toMatchObject({
      title: 'Good news',
      body: 'A clinician reviews.',
      checkoutUrl: 'https://shop.example/c?fr_token=x',
    });
    expect(outcomeView(DEF, { verdict: 'eligible', message: 'm', title: 'Variant title', body: 'Variant body' })).toMatchObject({ title: 'Variant title', body: 'Variant body' });
    const bare = { ...DEF, steps: DEF.steps.filter((s) => s.kind !== 'outcome') };
    expect(outcomeView(bare, { verdict: 'disqualified', message: 'm' }).title).toBe('Thank you for your answers');
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

  it("checks the contact details before they are sent", () => {
    const ok = { name: 'Ada Lovelace', email: 'ada@example.org', state: 'CA', dateOfBirth: '1980-02-03' };
    expect(checkContact(ok, '2026-11-26')).toEqual({});
    expect(Object.keys(checkContact({ name: ' ', email: 'nope', state: '', dateOfBirth: '' }, '2026-11-26')).sort()).toEqual(['dateOfBirth', 'email', 'name', 'state']);
    expect(checkContact({ ...ok, dateOfBirth: '2030-01-01' }, '2026-11-26').dateOfBirth).toMatch(/past/);
  });
});
