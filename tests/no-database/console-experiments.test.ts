import { describe, expect, it } from 'vitest';
import type { Experiment, ExperimentAnalysis } from '@/components/console/experiments/experiment-types';
import { overrideOfParam, parseOverrides, variantPreview, withCopyChange, withThemeToken } from '@/components/console/experiments/experiment-preview';
import { analysisSentence, chancePercent, experimentWarnings, srmText, suggestedWinner, upliftText } from '@/components/console/experiments/experiment-words';
import { starterDocument } from '@/components/console/flows/starter-document';
import { applyOverrides } from '@/server/domain/experiments/overrides';
import { isClinicalStep, type FlowDocumentShape } from '@/server/domain/flows/shared/shapes';

/** Issue 24, item 5: the experiments console's pure parts (the preview of the variant, the analysis in words). */

const starter = () => starterDocument({ key: 'weight-start', title: 'Weight' }, ['dob', 'height', 'weight']);
const control = (): FlowDocumentShape => ({
  settings: { questionnaireKey: 'weight-start' },
  steps: [
    ...starter().steps.slice(0, 1),
    { id: 'goals', kind: 'quiz', blocks: { title: 'Your goals', cta: 'Next' }, questions: [{ id: 'g', text: 'Why now?', type: 'string', required: false }] },
    ...starter().steps.slice(1),
  ],
  theme: { tokens: { primary: '#1d4ed8', radius: '4px' } },
});

describe('the variant preview', () => {
  const overrides = [
    { stepId: 'welcome', blocks: { headline: 'Lose weight, keep it off', body: null } },
    { stepId: '$flow', blocks: { theme: { primary: '#047857', radius: null }, order: ['goals', 'welcome', 'result'] } },
    { stepId: 'result', blocks: { eligibleTitle: 'Good news' } },
  ];

  it('matches what the server serves the variant, for overrides the server accepts', () => {
    const doc = control();
    const served = applyOverrides(doc, overrides);
    const { document, notes } = variantPreview(doc, overrides);
    expect(notes).toEqual([]);
    expect(document.steps).toEqual(served.steps);
    expect(document.theme).toEqual(served.theme);
    expect(document.steps.map((s) => s.id)).toEqual(['goals', 'welcome', 'health', 'consent', 'contact', 'result']);
    // The clinical steps are the control's own, at the control's positions.
    const clinicalAt = (d: FlowDocumentShape) => d.steps.map((st, i) => (isClinicalStep(st) ? [i, st] : null)).filter(Boolean);
    expect(clinicalAt(document)).toEqual(clinicalAt(doc));
  });

  it('leaves the control untouched', () => {
    const doc = control();
    const before = JSON.stringify(doc);
    variantPreview(doc, overrides);
    expect(JSON.stringify(doc)).toBe(before);
  });

  it('keeps clinical steps as they are and says why, where the server refuses', () => {
    const doc = control();
    const bad = [
      { stepId: 'consent', blocks: { title: 'Agree quickly' } },
      { stepId: 'nope', blocks: { headline: 'x' } },
      { stepId: '$flow', blocks: { order: ['consent', 'welcome'] } },
    ];
    const { document, notes } = variantPreview(doc, bad);
    expect(document.steps).toEqual(doc.steps);
    expect(notes.map((n) => [n.index, n.stepId])).toEqual([
      [0, 'consent'],
      [1, 'nope'],
      [2, '$flow'],
    ]);
    expect(notes[0].text).toMatch(/clinical and locked/);
    expect(() => applyOverrides(doc, bad)).toThrow(/clinical plane/);
  });

  it('an order missing a presentation step is refused by both', () => {
    const doc = control();
    const o = [{ stepId: '$flow', blocks: { order: ['goals', 'welcome'] } }];
    expect(variantPreview(doc, o).notes[0].text).toMatch(/every presentation step once/);
    expect(() => applyOverrides(doc, o)).toThrow(/missing/);
  });

  it('the pickers merge into one override per step, and an empty token value clears it', () => {
    let o = withCopyChange([], 'welcome', 'headline', 'A');
    o = withCopyChange(o, 'welcome', 'cta', 'Go');
    o = withThemeToken(o, 'primary', '#111111');
    o = withThemeToken(o, 'surface', '#fafafa');
    o = withThemeToken(o, 'surface', '');
    expect(o).toEqual([
      { stepId: 'welcome', blocks: { headline: 'A', cta: 'Go' } },
      { stepId: '$flow', blocks: { theme: { primary: '#111111' } } },
    ]);
  });

  it('reads the JSON box, or says what is wrong with it', () => {
    expect(parseOverrides('')).toEqual({ overrides: [] });
    expect(parseOverrides('[{"stepId":"welcome","blocks":{}}]')).toEqual({ overrides: [{ stepId: 'welcome', blocks: {} }] });
    expect(parseOverrides('{')).toEqual({ error: 'The overrides are not valid JSON.' });
    expect(parseOverrides('{}')).toEqual({ error: 'The overrides must be a JSON list.' });
    expect(parseOverrides('[{"stepId":1}]')).toEqual({ error: 'Override 1 needs a stepId and a blocks object.' });
  });

  it("names the step an error's param points at", () => {
    const sent = [{ stepId: 'welcome' }, { stepId: 'consent' }];
    expect(overrideOfParam('overrides.1.stepId', sent)).toBe('consent');
    expect(overrideOfParam('overrides.0.blocks.headline', sent)).toBe('welcome');
    expect(overrideOfParam('overrides.7.stepId', sent)).toBeUndefined();
    expect(overrideOfParam('splitPct', sent)).toBeUndefined();
  });
});

const analysis = (over: Partial<ExperimentAnalysis> = {}): ExperimentAnalysis => ({
  srmPValue: 0.41,
  srmPassed: true,
  chanceToBeatControl: 0.9412,
  expectedLoss: { control: 0.021, variant: 0.003 },
  relativeUplift: { estimate: 0.12, lower: -0.031, upper: 0.294 },
  enoughData: true,
  minSessionsPerArm: 100,
  ...over,
});

const experiment = (a: ExperimentAnalysis, control = 500, variant = 500): Pick<Experiment, 'analysis' | 'results' | 'splitPct'> => ({
  analysis: a,
  splitPct: 50,
  results: { control: { sessions: control, qualified: 50, qualifyRate: 50 / control }, variant: { sessions: variant, qualified: 56, qualifyRate: 56 / variant } },
});

describe('the analysis in words', () => {
  it('says the chance to win, the expected loss in points and the SRM check', () => {
    expect(analysisSentence(analysis())).toBe('The variant is 94% likely to beat control; expected loss 0.3 pp; SRM check passed (p = 0.410).');
  });

  it('never rounds a probability to certainty', () => {
    expect(chancePercent(0.9996)).toBe('>99%');
    expect(chancePercent(0.001)).toBe('<1%');
    expect(chancePercent(0.5)).toBe('50%');
  });

  it('the SRM check before any session, and when it fails', () => {
    expect(srmText(analysis({ srmPValue: null }))).toBe('SRM check not run yet (no sessions)');
    expect(srmText(analysis({ srmPValue: 0.00001, srmPassed: false }))).toBe('SRM check failed (p < 0.001)');
  });

  it('the uplift with its interval, or why there is none', () => {
    expect(upliftText(analysis())).toBe('Relative uplift +12.0% (95% interval −3.1% to +29.4%).');
    expect(upliftText(analysis({ relativeUplift: null }))).toMatch(/not yet estimable/);
  });

  it('warns on a failed SRM check and on too little data, and only then', () => {
    expect(experimentWarnings(experiment(analysis()))).toEqual([]);
    const srm = experimentWarnings(experiment(analysis({ srmPValue: 0.0001, srmPassed: false }), 700, 300));
    expect(srm.map((w) => w.kind)).toEqual(['srm']);
    expect(srm[0].text).toContain('control has 700 and the variant 300 sessions against a configured 50/50 split (p < 0.001)');
    const few = experimentWarnings(experiment(analysis({ enoughData: false }), 12, 9));
    expect(few.map((w) => w.kind)).toEqual(['data']);
    expect(few[0].text).toContain('at least 100 sessions (control has 12, the variant 9)');
  });

  it('suggests the variant as winner only when the numbers can be trusted', () => {
    expect(suggestedWinner(analysis({ chanceToBeatControl: 0.97 }))).toBe('variant');
    expect(suggestedWinner(analysis({ chanceToBeatControl: 0.97, enoughData: false }))).toBe('control');
    expect(suggestedWinner(analysis({ chanceToBeatControl: 0.97, srmPassed: false }))).toBe('control');
    expect(suggestedWinner(analysis())).toBe('control');
  });
});
