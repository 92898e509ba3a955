import { describe, expect, it } from 'vitest';
import { evaluate, type Evaluation } from '@/server/domain/intake/shared/engine';
import type { Condition, QuestionnaireDocument, QuestionnaireItem, QuestionnaireRule } from '@/server/domain/intake/questionnaire-schema';

/** Worked cases of the eligibility engine (DESIGN decision 19; semantics in docs/decisions/intake.md). */

const ITEMS: QuestionnaireItem[] = [
  { linkId: 'dob', text: 'Date of birth', type: 'date', required: true },
  { linkId: 'smoker', text: 'Smoker?', type: 'boolean', required: true },
  { linkId: 'sex', text: 'Sex', type: 'choice', required: true, options: [{ value: 'female', label: 'F' }, { value: 'male', label: 'M' }] },
  { linkId: 'pregnant', text: 'Pregnant?', type: 'boolean', required: true, enableWhen: { q: 'sex', op: 'eq', value: 'female' } },
  { linkId: 'trimester', text: 'Trimester', type: 'integer', required: true, min: 1, max: 3, enableWhen: { q: 'pregnant', op: 'eq', value: true } },
  {
    linkId: 'conds',
    text: 'Conditions',
    type: 'multi_choice',
    required: false,
    options: [{ value: 'htn', label: 'HTN' }, { value: 'dm2', label: 'DM2' }, { value: 'osa', label: 'OSA' }, { value: 'none', label: 'None' }],
  },
  { linkId: 'hcm', text: 'Height', type: 'integer', required: false, unit: 'cm' },
  { linkId: 'wkg', text: 'Weight', type: 'decimal', required: false, unit: 'kg' },
  { linkId: 'hin', text: 'Height (in)', type: 'integer', required: false },
  { linkId: 'wlb', text: 'Weight (lb)', type: 'decimal', required: false },
  { linkId: 'visit', text: 'Last visit', type: 'date', required: false },
  { linkId: 'note', text: 'Note', type: 'string', required: false },
  { linkId: 'count', text: 'Count', type: 'integer', required: false, min: 0, max: 10 },
];

const doc = (rules: QuestionnaireRule[]): QuestionnaireDocument => ({ key: 'worked', title: 'Worked cases', items: ITEMS, rules });
const dq = (id: string, when: Condition): QuestionnaireRule => ({ id, when, effect: 'disqualify', patientMessage: 'no' });
const flag = (id: string, when: Condition): QuestionnaireRule => ({ id, when, effect: 'review_flag', patientMessage: 'look' });

/** Every required item of a man answered: eligible unless a rule says otherwise. */
const MAN = { dob: '1990-05-15', smoker: false, sex: 'male' };
const WOMAN = { dob: '1990-05-15', smoker: false, sex: 'female', pregnant: false };
const ASOF = '2026-11-25';

interface Row {
  name: string;
  rules: QuestionnaireRule[];
  answers: Record<string, unknown>;
  asOf?: string;
  expected: Partial<Evaluation> & { verdict: Evaluation['verdict'] };
}

const ok = { verdict: 'eligible' as const, missing: [], hits: [], flags: [] };
const hit = (...hits: string[]) => ({ verdict: 'disqualified' as const, hits, flags: [] });

const ROWS: Row[] = [
  { name: 'eq boolean matches', rules: [dq('r', { q: 'smoker', op: 'eq', value: true })], answers: { ...MAN, smoker: true }, expected: hit('r') },
  { name: 'eq boolean does not match', rules: [dq('r', { q: 'smoker', op: 'eq', value: true })], answers: MAN, expected: ok },
  { name: 'neq choice', rules: [dq('r', { q: 'sex', op: 'neq', value: 'female' })], answers: MAN, expected: hit('r') },
  { name: 'neq on an unanswered item is false', rules: [dq('r', { q: 'note', op: 'neq', value: 'x' })], answers: MAN, expected: ok },
  { name: 'in on a choice', rules: [dq('r', { q: 'sex', op: 'in', value: ['male'] })], answers: MAN, expected: hit('r') },
  { name: 'nin on a choice', rules: [dq('r', { q: 'sex', op: 'nin', value: ['female'] })], answers: MAN, expected: hit('r') },
  { name: 'nin on an unanswered item is false', rules: [dq('r', { q: 'note', op: 'nin', value: ['x'] })], answers: MAN, expected: ok },
  { name: 'gt', rules: [dq('r', { q: 'count', op: 'gt', value: 3 })], answers: { ...MAN, count: 4 }, expected: hit('r') },
  { name: 'gt at the boundary is false', rules: [dq('r', { q: 'count', op: 'gt', value: 3 })], answers: { ...MAN, count: 3 }, expected: ok },
  { name: 'gte at the boundary', rules: [dq('r', { q: 'count', op: 'gte', value: 3 })], answers: { ...MAN, count: 3 }, expected: hit('r') },
  { name: 'lt at the boundary is false', rules: [dq('r', { q: 'count', op: 'lt', value: 3 })], answers: { ...MAN, count: 3 }, expected: ok },
  { name: 'lte at the boundary', rules: [dq('r', { q: 'count', op: 'lte', value: 3 })], answers: { ...MAN, count: 3 }, expected: hit('r') },
  { name: 'lt with 0 (a falsy answer still counts)', rules: [dq('r', { q: 'count', op: 'lt', value: 1 })], answers: { ...MAN, count: 0 }, expected: hit('r') },
  { name: 'exists on an answered item', rules: [flag('f', { q: 'note', op: 'exists' })], answers: { ...MAN, note: 'hi' }, expected: { ...ok, flags: ['f'] } },
  { name: 'exists on an unanswered item is false', rules: [flag('f', { q: 'note', op: 'exists', value: true })], answers: MAN, expected: ok },
  { name: 'exists false on an unanswered item', rules: [flag('f', { q: 'note', op: 'exists', value: false })], answers: MAN, expected: { ...ok, flags: ['f'] } },
  { name: 'a blank string is unanswered', rules: [flag('f', { q: 'note', op: 'exists' })], answers: { ...MAN, note: '   ' }, expected: ok },
  {
    name: 'all: every part true',
    rules: [dq('r', { all: [{ q: 'smoker', op: 'eq', value: true }, { q: 'count', op: 'gte', value: 5 }] })],
    answers: { ...MAN, smoker: true, count: 5 },
    expected: hit('r'),
  },
  {
    name: 'all: one part false',
    rules: [dq('r', { all: [{ q: 'smoker', op: 'eq', value: true }, { q: 'count', op: 'gte', value: 5 }] })],
    answers: { ...MAN, smoker: true, count: 4 },
    expected: ok,
  },
  {
    name: 'any: one part true',
    rules: [dq('r', { any: [{ q: 'smoker', op: 'eq', value: true }, { q: 'count', op: 'gte', value: 5 }] })],
    answers: { ...MAN, count: 9 },
    expected: hit('r'),
  },
  { name: 'not inverts', rules: [dq('r', { not: { q: 'smoker', op: 'eq', value: false } })], answers: { ...MAN, smoker: true }, expected: hit('r') },
  { name: 'not over an unanswered item is true', rules: [dq('r', { not: { q: 'note', op: 'eq', value: 'ok' } })], answers: MAN, expected: hit('r') },
  { name: 'age: 18th birthday today', rules: [dq('minor', { q: 'age(dob)', op: 'lt', value: 18 })], answers: { ...MAN, dob: '2008-11-25' }, expected: ok },
  { name: 'age: 18th birthday tomorrow', rules: [dq('minor', { q: 'age(dob)', op: 'lt', value: 18 })], answers: { ...MAN, dob: '2008-11-26' }, expected: hit('minor') },
  {
    name: 'age: born 29 Feb, 28 Feb of a common year is not yet the birthday',
    rules: [dq('minor', { q: 'age(dob)', op: 'lt', value: 18 })],
    answers: { ...MAN, dob: '2008-02-29' },
    asOf: '2026-02-28',
    expected: hit('minor'),
  },
  {
    name: 'age: born 29 Feb, 1 March of a common year is',
    rules: [dq('minor', { q: 'age(dob)', op: 'lt', value: 18 })],
    answers: { ...MAN, dob: '2008-02-29' },
    asOf: '2026-03-01',
    expected: ok,
  },
  {
    name: 'age: born 29 Feb, 29 Feb of a leap year is',
    rules: [dq('minor', { q: 'age(dob)', op: 'lt', value: 20 })],
    answers: { ...MAN, dob: '2008-02-29' },
    asOf: '2028-02-29',
    expected: ok,
  },
  { name: 'age: a birth date in the future is a negative age', rules: [dq('minor', { q: 'age(dob)', op: 'lt', value: 18 })], answers: { ...MAN, dob: '2030-01-01' }, expected: hit('minor') },
  { name: 'age: eq on whole years', rules: [flag('f', { q: 'age(dob)', op: 'eq', value: 36 })], answers: MAN, expected: { ...ok, flags: ['f'] } },
  {
    name: 'bmi metric: 170 cm, 78 kg is 26.99, charted 27.0',
    rules: [dq('low', { q: 'bmi(hcm, wkg)', op: 'lt', value: 27 })],
    answers: { ...MAN, hcm: 170, wkg: 78 },
    expected: ok,
  },
  {
    name: 'bmi metric: 170 cm, 77.5 kg is 26.8',
    rules: [dq('low', { q: 'bmi(hcm, wkg)', op: 'lt', value: 27 })],
    answers: { ...MAN, hcm: 170, wkg: 77.5 },
    expected: hit('low'),
  },
  {
    name: 'bmi imperial (default units): 66 in, 180 lb is 29.1',
    rules: [dq('low', { q: 'bmi(hin, wlb)', op: 'lt', value: 30 }), flag('exact', { q: 'bmi(hin, wlb)', op: 'eq', value: 29.1 })],
    answers: { ...MAN, hin: 66, wlb: 180 },
    expected: { verdict: 'disqualified', hits: ['low'], flags: ['exact'] },
  },
  {
    name: 'bmi mixed units: 170 cm, 172 lb is 27.0',
    rules: [flag('exact', { q: 'bmi(hcm, wlb)', op: 'eq', value: 27 })],
    answers: { ...MAN, hcm: 170, wlb: 172 },
    expected: { ...ok, flags: ['exact'] },
  },
  { name: 'bmi without a weight is unanswered', rules: [dq('low', { q: 'bmi(hcm, wkg)', op: 'lt', value: 27 })], answers: { ...MAN, hcm: 170 }, expected: ok },
  { name: 'multi_choice eq means contains', rules: [dq('r', { q: 'conds', op: 'eq', value: 'dm2' })], answers: { ...MAN, conds: ['htn', 'dm2'] }, expected: hit('r') },
  { name: 'multi_choice neq means does not contain', rules: [dq('r', { q: 'conds', op: 'neq', value: 'dm2' })], answers: { ...MAN, conds: ['htn'] }, expected: hit('r') },
  { name: 'multi_choice in means any overlap', rules: [dq('r', { q: 'conds', op: 'in', value: ['osa', 'dm2'] })], answers: { ...MAN, conds: ['htn', 'dm2'] }, expected: hit('r') },
  { name: 'multi_choice nin means no overlap', rules: [dq('r', { q: 'conds', op: 'nin', value: ['osa', 'dm2'] })], answers: { ...MAN, conds: ['htn'] }, expected: hit('r') },
  { name: 'multi_choice nin with an overlap is false', rules: [dq('r', { q: 'conds', op: 'nin', value: ['htn'] })], answers: { ...MAN, conds: ['htn', 'osa'] }, expected: ok },
  { name: 'multi_choice: an empty selection is unanswered', rules: [flag('f', { q: 'conds', op: 'exists' })], answers: { ...MAN, conds: [] }, expected: ok },
  {
    name: 'a disabled item is ignored by rules and is never missing',
    rules: [dq('preg', { q: 'pregnant', op: 'eq', value: true })],
    answers: { ...MAN, pregnant: true, trimester: 2 },
    expected: ok,
  },
  {
    name: 'a disabled item is ignored by later enableWhen (trimester stays disabled)',
    rules: [dq('t', { q: 'trimester', op: 'exists' })],
    answers: { ...MAN, pregnant: true, trimester: 2 },
    expected: ok,
  },
  { name: 'an enabled required item without an answer is missing', rules: [], answers: { ...WOMAN, pregnant: undefined }, expected: { verdict: 'incomplete', missing: ['pregnant'], hits: [], flags: [] } },
  {
    name: 'enableWhen chains: pregnant enables trimester, which is then missing',
    rules: [dq('preg', { q: 'pregnant', op: 'eq', value: true })],
    answers: { ...WOMAN, pregnant: true },
    expected: { verdict: 'disqualified', missing: ['trimester'], hits: ['preg'], flags: [] },
  },
  {
    name: 'a matching disqualifier wins over missing answers',
    rules: [dq('smoke', { q: 'smoker', op: 'eq', value: true })],
    answers: { sex: 'female', smoker: true },
    expected: { verdict: 'disqualified', missing: ['dob', 'pregnant'], hits: ['smoke'], flags: [] },
  },
  {
    name: 'skipping the question a disqualifier asks is incomplete, not eligible',
    rules: [dq('smoke', { q: 'smoker', op: 'eq', value: true })],
    answers: { dob: '1990-05-15', sex: 'male' },
    expected: { verdict: 'incomplete', missing: ['smoker'], hits: [], flags: [] },
  },
  { name: 'review flags do not change the verdict', rules: [flag('f', { q: 'smoker', op: 'eq', value: true })], answers: { ...MAN, smoker: true }, expected: { ...ok, flags: ['f'] } },
  {
    name: 'hits and flags are in document order',
    rules: [flag('f2', { q: 'smoker', op: 'exists' }), dq('b', { q: 'sex', op: 'eq', value: 'male' }), flag('f1', { q: 'dob', op: 'exists' }), dq('a', { q: 'smoker', op: 'eq', value: false })],
    answers: MAN,
    expected: { verdict: 'disqualified', missing: [], hits: ['b', 'a'], flags: ['f2', 'f1'] },
  },
  { name: 'a wrong type is unanswered', rules: [dq('smoke', { q: 'smoker', op: 'eq', value: true })], answers: { ...MAN, smoker: 'yes' }, expected: { verdict: 'incomplete', missing: ['smoker'], hits: [] } },
  { name: 'a number out of min/max is unanswered', rules: [dq('r', { q: 'count', op: 'gt', value: 3 })], answers: { ...MAN, count: 11 }, expected: ok },
  { name: 'an integer item with a fraction is unanswered', rules: [dq('r', { q: 'count', op: 'gt', value: 3 })], answers: { ...MAN, count: 4.5 }, expected: ok },
  { name: 'a choice outside the options is unanswered', rules: [], answers: { ...MAN, sex: 'other' }, expected: { verdict: 'incomplete', missing: ['sex'], hits: [] } },
  { name: 'null is unanswered', rules: [], answers: { ...MAN, smoker: null }, expected: { verdict: 'incomplete', missing: ['smoker'] } },
  { name: 'dates compare as ISO strings', rules: [flag('old', { q: 'visit', op: 'lt', value: '2025-01-01' })], answers: { ...MAN, visit: '2024-12-31' }, expected: { ...ok, flags: ['old'] } },
  { name: 'date compare at the boundary', rules: [flag('old', { q: 'visit', op: 'lt', value: '2025-01-01' })], answers: { ...MAN, visit: '2025-01-01' }, expected: ok },
  { name: 'a date that is not on the calendar is unanswered', rules: [], answers: { ...MAN, dob: '2023-02-29' }, expected: { verdict: 'incomplete', missing: ['dob'] } },
  { name: 'answers that are not an object: everything is missing', rules: [], answers: null as unknown as Record<string, unknown>, expected: { verdict: 'incomplete', missing: ['dob', 'smoker', 'sex'] } },
  {
    name: 'an asOf that is not a date leaves age unanswered',
    rules: [dq('minor', { q: 'age(dob)', op: 'lt', value: 18 })],
    answers: { ...MAN, dob: '2020-01-01' },
    asOf: 'tomorrow',
    expected: ok,
  },
];

describe('evaluate: worked cases', () => {
  it.each(ROWS)('$name', ({ rules, answers, asOf, expected }) => {
    const result = evaluate(doc(rules), answers, { asOf: asOf ?? ASOF });
    expect(result).toMatchObject(expected);
  });

  it('covers every operator, all/any/not and both derived values', () => {
    const seen = new Set<string>();
    const visit = (c: Condition) => {
      if ('all' in c) {
        seen.add('all');
        c.all.forEach(visit);
      } else if ('any' in c) {
        seen.add('any');
        c.any.forEach(visit);
      } else if ('not' in c) {
        seen.add('not');
        visit(c.not);
      } else {
        seen.add(c.op);
        if (c.q.startsWith('age(')) seen.add('age');
        if (c.q.startsWith('bmi(')) seen.add('bmi');
      }
    };
    ROWS.forEach((r) => r.rules.forEach((rule) => visit(rule.when)));
    for (const k of ['eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists', 'all', 'any', 'not', 'age', 'bmi']) expect(seen, k).toContain(k);
  });

  it('compiles once per document and gives the same answer on the cached path', () => {
    const d = doc([dq('r', { q: 'smoker', op: 'eq', value: true })]);
    const first = evaluate(d, { ...MAN, smoker: true }, { asOf: ASOF });
    expect(evaluate(d, { ...MAN, smoker: true }, { asOf: ASOF })).toEqual(first);
    expect(evaluate(d, MAN, { asOf: ASOF }).verdict).toBe('eligible');
  });
});

describe('the library questionnaires', () => {
  it('decide typical patients as a medical director would expect', async () => {
    const { weightManagement, hairLoss, generalRefill } = await import('@/server/domain/intake/library');
    const wm = {
      dob: '1985-03-02', state: 'CA', sex: 'female', height: 65, weight: 200, comorbidities: ['none'], pregnant: false,
      mtc_men2: false, pancreatitis: false, type1_diabetes: false, eating_disorder: 'never', gallbladder: false, glp1_current: false,
    };
    expect(evaluate(weightManagement, wm, { asOf: ASOF })).toEqual({ verdict: 'eligible', missing: [], hits: [], flags: [] }); // BMI 33.3
    expect(evaluate(weightManagement, { ...wm, weight: 160 }, { asOf: ASOF }).hits).toEqual(['bmi_too_low']); // 26.6
    expect(evaluate(weightManagement, { ...wm, weight: 170, comorbidities: ['hypertension'] }, { asOf: ASOF }).verdict).toBe('eligible'); // 28.3 with a condition
    expect(evaluate(weightManagement, { ...wm, weight: 170 }, { asOf: ASOF }).hits).toEqual(['bmi_too_low']); // 28.3 without
    expect(evaluate(weightManagement, { ...wm, pregnant: true, glp1_current: true, glp1_name: 'x' }, { asOf: ASOF })).toMatchObject({ verdict: 'disqualified', hits: ['pregnancy'], flags: ['glp1_current'] });
    expect(evaluate(weightManagement, { ...wm, glp1_current: true }, { asOf: ASOF })).toMatchObject({ verdict: 'incomplete', missing: ['glp1_name'] });
    expect(evaluate(weightManagement, { ...wm, sex: 'male', pregnant: true }, { asOf: ASOF }).verdict).toBe('eligible');
    expect(evaluate(weightManagement, { ...wm, dob: '2009-01-01' }, { asOf: ASOF }).hits).toEqual(['under_18']);

    const hl = { dob: '1990-01-01', state: 'NY', sex: 'male', pattern: 'crown', duration_months: 18, prostate: true, liver_disease: false, low_blood_pressure: false, depression: false };
    expect(evaluate(hairLoss, hl, { asOf: ASOF })).toEqual({ verdict: 'eligible', missing: [], hits: [], flags: ['prostate'] });
    expect(evaluate(hairLoss, { ...hl, sex: 'female' }, { asOf: ASOF })).toMatchObject({ verdict: 'incomplete', missing: ['pregnant_or_trying'], flags: [] });
    expect(evaluate(hairLoss, { ...hl, sex: 'female', pregnant_or_trying: true }, { asOf: ASOF }).hits).toEqual(['pregnancy']);

    const gr = { medication: 'lisinopril 10 mg', last_visit: '2026-06-01', taking_as_prescribed: true, side_effects: false, health_changes: ['none'], severe_reaction: false };
    expect(evaluate(generalRefill, gr, { asOf: ASOF })).toEqual({ verdict: 'eligible', missing: [], hits: [], flags: [] });
    expect(evaluate(generalRefill, { ...gr, last_visit: '2025-11-25' }, { asOf: ASOF }).flags).toEqual(['review_overdue']);
    expect(evaluate(generalRefill, { ...gr, health_changes: ['new_medication'] }, { asOf: ASOF })).toMatchObject({ verdict: 'incomplete', missing: ['changes_detail'], flags: ['health_changed'] });
  });
});

describe('exclusive options (DESIGN decision 46)', () => {
  const items: QuestionnaireItem[] = [
    {
      linkId: 'conds',
      text: 'Conditions',
      type: 'multi_choice',
      required: true,
      options: [{ value: 'htn', label: 'HTN' }, { value: 'dm2', label: 'DM2' }, { value: 'none', label: 'None of these', exclusive: true }],
    },
  ];
  const exclusiveDoc: QuestionnaireDocument = { key: 'excl', title: 'Exclusive', items, rules: [dq('htn', { q: 'conds', op: 'in', value: ['htn'] })] };

  it('a list combining the exclusive option is refused naming the item, and never counts as an answer', async () => {
    const { checkAnswers } = await import('@/server/domain/intake/shared/engine');
    for (const conds of [['htn', 'none'], ['none', 'dm2'], ['htn', 'dm2', 'none']]) {
      expect(checkAnswers(exclusiveDoc, { conds })).toEqual([{ param: 'answers.conds', message: expect.stringMatching(/^The answer to item "conds" must be an option marked exclusive/) }]);
      // Unanswered, so a rule on it does not match (no disqualifier slips in or out) and the required item is missing.
      expect(evaluate(exclusiveDoc, { conds }, { asOf: ASOF })).toEqual({ verdict: 'incomplete', missing: ['conds'], hits: [], flags: [] });
    }
    for (const conds of [['none'], ['htn', 'dm2'], ['dm2']]) expect(checkAnswers(exclusiveDoc, { conds })).toEqual([]);
    expect(evaluate(exclusiveDoc, { conds: ['none'] }, { asOf: ASOF }).verdict).toBe('eligible');
    expect(evaluate(exclusiveDoc, { conds: ['htn', 'dm2'] }, { asOf: ASOF }).hits).toEqual(['htn']);
  });

  it('the library marks its "none" answers exclusive', async () => {
    const { weightManagement, generalRefill } = await import('@/server/domain/intake/library');
    const { checkAnswers } = await import('@/server/domain/intake/shared/engine');
    expect(checkAnswers(weightManagement, { comorbidities: ['hypertension', 'none'] }).map((p) => p.param)).toEqual(['answers.comorbidities']);
    expect(checkAnswers(generalRefill, { health_changes: ['new_medication', 'none'] }).map((p) => p.param)).toEqual(['answers.health_changes']);
  });
});
