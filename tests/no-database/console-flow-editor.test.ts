import { describe, expect, it } from 'vitest';
import { fillDays, rangeOf } from '@/components/console/flows/analytics-range';
import { addStep, contactStepSummary, moveStep, newStep, stepOfParam } from '@/components/console/flows/flow-steps';
import { publishOutcome } from '@/components/console/flows/flow-status';
import type { DraftDocument, Flow, FlowVersionSummary } from '@/components/console/flows/flow-types';
import { copyPatches, documentForSave } from '@/components/console/flows/save-plan';
import { starterDocument } from '@/components/console/flows/starter-document';
import { themeStyle, THEME_DEFAULTS } from '@/components/console/flows/theme-tokens';
import { flowStructureProblems, parseFlowDocument, ZFlowStep } from '@/server/domain/flows/flow-schema';
import { CONTACT_FIELDS, FLOW_STEP_KINDS } from '@/server/domain/flows/shared/shapes';

/** Issue 23, item 9: the console flow editor's pure parts (what it sends, and how it reads an error back). */

const doc = (): DraftDocument => starterDocument({ key: 'weight-start', title: 'Weight' }, ['dob', 'height', 'weight']);

describe('starter document and new steps', () => {
  it('a new flow starts from a document the API accepts as is', () => {
    expect(() => parseFlowDocument(doc())).not.toThrow();
  });

  it('every new step but an empty medical page passes the step schema', () => {
    for (const kind of FLOW_STEP_KINDS) {
      const step = newStep(kind, ['landing-1']);
      expect(step.id).not.toBe('landing-1');
      expect(ZFlowStep.safeParse(step).success, kind).toBe(kind !== 'medical');
    }
  });

  it('a new step goes before the outcome; a new outcome goes last', () => {
    const d = doc();
    const landing = newStep('landing', d.steps.map((s) => s.id));
    const withLanding = addStep(d.steps, landing);
    expect(withLanding.at(-1)?.kind).toBe('outcome');
    expect(withLanding.at(-2)).toBe(landing);
    const noOutcome = d.steps.slice(0, -1);
    const outcome = newStep('outcome', []);
    expect(addStep(noOutcome, outcome).at(-1)).toBe(outcome);
    expect(flowStructureProblems({ ...d, steps: withLanding } as never)).toEqual([]);
  });

  it('moves a step and ignores a move past either end', () => {
    const steps = doc().steps;
    expect(moveStep(steps, 0, 1).map((s) => s.id)).toEqual(['health', 'welcome', 'consent', 'contact', 'result']);
    expect(moveStep(steps, 0, -1).map((s) => s.id)).toEqual(steps.map((s) => s.id));
    expect(moveStep(steps, 4, 5).map((s) => s.id)).toEqual(steps.map((s) => s.id));
  });
});

describe('what a save sends', () => {
  it('copy of presentation steps only: step patches, with an emptied optional field cleared (null)', () => {
    const saved = doc();
    const draft = structuredClone(saved);
    const landing = draft.steps[0];
    if (landing.kind !== 'landing') throw new Error('starter begins with a landing page');
    landing.blocks.headline = 'New headline';
    delete landing.blocks.body;
    expect(copyPatches(saved, draft)).toEqual([{ stepId: 'welcome', blocks: { headline: 'New headline', cta: 'Check my eligibility', body: null } }]);
    expect(copyPatches(saved, structuredClone(saved))).toEqual([]);
  });

  it('anything else needs the whole document: order, theme, a clinical step', () => {
    const saved = doc();
    expect(copyPatches(saved, { ...saved, steps: moveStep(saved.steps, 0, 1) })).toBeNull();
    expect(copyPatches(saved, { ...saved, theme: { tokens: { primary: '#123456' } } })).toBeNull();
    const clinical = structuredClone(saved);
    const consent = clinical.steps[2];
    if (consent.kind !== 'consent') throw new Error('starter has consent third');
    consent.text = 'Other text';
    expect(copyPatches(saved, clinical)).toBeNull();
  });

  it('the checkout secret shown as its last four is not sent back (the stored one is kept)', () => {
    const d = { ...doc(), settings: { questionnaireKey: 'weight-start', checkout: { storeUrl: 'https://shop.example/checkout', secretLast4: 'abcd' } } };
    expect(documentForSave(d).settings).toEqual({ questionnaireKey: 'weight-start', checkout: { storeUrl: 'https://shop.example/checkout' } });
    expect(documentForSave(doc()).settings).toEqual({ questionnaireKey: 'weight-start' });
  });
});

describe('reading an error back', () => {
  const steps = doc().steps;
  it('finds the step a document param or a step patch param names', () => {
    expect(stepOfParam('document.steps.3.title', steps)).toBe(3);
    expect(stepOfParam('steps.0', steps)).toBe(0);
    expect(stepOfParam('stepPatches.1.blocks.headline', steps, ['welcome', 'result'])).toBe(4);
    expect(stepOfParam('document.steps.9.title', steps)).toBeUndefined();
    expect(stepOfParam('settings.questionnaireKey', steps)).toBeUndefined();
    expect(stepOfParam(undefined, steps)).toBeUndefined();
  });
});

describe('publish outcome and theme', () => {
  const version = (hash: string): FlowVersionSummary => ({ id: 'fv_1', number: 1, status: 'published', clinicalPlaneHash: hash, questionnaire: { key: 'weight-start', version: 1 }, approvedBy: 'usr_1', approvedAt: null, publishedAt: null });
  const flow = (draftHash: string | null, active: FlowVersionSummary | null) => ({ draftClinicalPlaneHash: draftHash, activeVersion: active }) as Flow;
  it('says what Publish will do from the two clinical-plane hashes', () => {
    expect(publishOutcome(flow('a'.repeat(64), version('a'.repeat(64)))).kind).toBe('copy');
    expect(publishOutcome(flow('b'.repeat(64), version('a'.repeat(64)))).kind).toBe('clinical');
    expect(publishOutcome(flow('a'.repeat(64), null)).kind).toBe('first');
    expect(publishOutcome(flow(null, null)).kind).toBe('unknown');
  });

  it('the preview sets every --nl-flow-* variable, defaults for unset tokens', () => {
    const style = themeStyle({ primary: '#123456' });
    expect(style['--nl-flow-primary']).toBe('#123456');
    expect(style['--nl-flow-radius']).toBe(THEME_DEFAULTS.radius);
    expect(Object.keys(style)).toHaveLength(10);
  });
});

describe('analytics range', () => {
  it('the last n UTC days end today, inclusive, across a month end', () => {
    expect(rangeOf(7, new Date('2026-03-03T23:59:00Z'))).toEqual({ from: '2026-02-25', to: '2026-03-03' });
    expect(rangeOf(1, new Date('2026-03-03T00:00:00Z'))).toEqual({ from: '2026-03-03', to: '2026-03-03' });
  });

  it('a day the series lacks is a quiet day, in order', () => {
    const empty = (day: string) => ({ day, views: 0 });
    expect(fillDays([{ day: '2026-03-02', views: 4 }], '2026-03-01', '2026-03-03', empty)).toEqual([
      { day: '2026-03-01', views: 0 },
      { day: '2026-03-02', views: 4 },
      { day: '2026-03-03', views: 0 },
    ]);
  });
});

describe('the contact step, summarised for a provider (issue 50, item 5)', () => {
  it('names everything the step asks, phone and shipping address too', () => {
    expect(contactStepSummary()).toBe(
      'Full name, e-mail, phone, consent to text messages (optional), date of birth and shipping address (street, apartment or unit (optional), city, state, ZIP code).',
    );
  });
  it('leaves no field of CONTACT_FIELDS unnamed, and names only the fields given', () => {
    const words = { name: 'full name', email: 'e-mail', phone: 'phone', smsConsent: 'consent to text messages', dateOfBirth: 'date of birth', addressLine1: 'street', addressLine2: 'apartment', city: 'city', state: 'state', postalCode: 'ZIP code' };
    for (const f of CONTACT_FIELDS) expect(contactStepSummary().toLowerCase()).toContain(words[f].toLowerCase());
    expect(contactStepSummary(['name', 'email', 'state', 'dateOfBirth'])).toBe('Full name, e-mail, date of birth and shipping address (state).');
  });
});
