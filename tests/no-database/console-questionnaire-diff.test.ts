import { describe, expect, it } from 'vitest';
import { diffQuestionnaires, stableJson } from '@/components/console/intake/questionnaire-diff';
import { questionnaireStatusWords, replacedBy } from '@/components/console/intake/intake-ui';
import { conditionWords, itemFacts, itemIndex, ruleWords } from '@/components/console/intake/questionnaire-words';
import type { QuestionnaireDoc } from '@/components/console/intake/questionnaire-types';
import { weightManagement } from '@/server/domain/intake/library/weight-management';

/** Issue 22, item 9: the console's questionnaire diff and its plain-words preview are pure functions. */

const base: QuestionnaireDoc = {
  key: 'wm',
  title: 'Weight',
  items: [
    { linkId: 'height', text: 'How tall are you?', type: 'integer', required: true, unit: 'in', min: 36, max: 96 },
    { linkId: 'weight', text: 'How much do you weigh?', type: 'decimal', required: true, unit: 'lb' },
    { linkId: 'pregnant', text: 'Are you pregnant?', type: 'boolean', required: true },
  ],
  rules: [
    { id: 'bmi_low', when: { q: 'bmi(height, weight)', op: 'lt', value: 27 }, effect: 'disqualify', patientMessage: 'BMI too low.' },
    { id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Not in pregnancy.' },
  ],
};

describe('diffQuestionnaires', () => {
  it('finds nothing between a version and itself, whatever the key order', () => {
    const shuffled = JSON.parse(JSON.stringify(base, Object.keys(base).reverse())) as QuestionnaireDoc;
    expect(diffQuestionnaires(base, { ...base, items: base.items.map((i) => ({ ...i })) }).same).toBe(true);
    expect(stableJson({ a: 1, b: [1, { d: 2, c: 3 }] })).toBe(stableJson({ b: [1, { c: 3, d: 2 }], a: 1 }));
    expect(diffQuestionnaires(base, { ...shuffled, items: base.items, rules: base.rules }).same).toBe(true);
  });

  it('names items and rules added, removed and changed, with the fields that differ', () => {
    const next: QuestionnaireDoc = {
      ...base,
      title: 'Weight management',
      items: [
        { ...base.items[0], max: 100 },
        base.items[1],
        { linkId: 'mtc', text: 'Thyroid cancer in the family?', type: 'boolean', required: true },
      ],
      rules: [
        { ...base.rules[0], when: { q: 'bmi(height, weight)', op: 'lt', value: 30 }, patientMessage: 'BMI under 30.' },
        { id: 'mtc', when: { q: 'mtc', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Not with MTC.' },
      ],
    };
    const d = diffQuestionnaires(base, next);
    expect(d.same).toBe(false);
    expect(d.document).toEqual([{ field: 'title', before: 'Weight', after: 'Weight management' }]);
    expect(d.items.added.map((i) => i.linkId)).toEqual(['mtc']);
    expect(d.items.removed.map((i) => i.linkId)).toEqual(['pregnant']);
    expect(d.items.changed.map((c) => [c.id, c.fields])).toEqual([['height', ['max']]]);
    expect(d.rules.added.map((r) => r.id)).toEqual(['mtc']);
    expect(d.rules.removed.map((r) => r.id)).toEqual(['pregnancy']);
    expect(d.rules.changed.map((c) => [c.id, c.fields])).toEqual([['bmi_low', ['patientMessage', 'when']]]);
  });

  it('reports a reordered item as moved, but not the items an insertion shifts', () => {
    const moved = diffQuestionnaires(base, { ...base, items: [base.items[1], base.items[0], base.items[2]] });
    expect(moved.items.changed.map((c) => [c.id, c.fields])).toEqual([
      ['weight', ['position']],
      ['height', ['position']],
    ]);
    const inserted = diffQuestionnaires(base, { ...base, items: [{ linkId: 'dob', text: 'Born?', type: 'date', required: true }, ...base.items] });
    expect(inserted.items.changed).toEqual([]);
    expect(inserted.items.added.map((i) => i.linkId)).toEqual(['dob']);
  });
});

describe('questionnaire in plain words', () => {
  const items = itemIndex(weightManagement.items);
  it('says a rule with derived values, option labels and negations as a provider reads it', () => {
    const bmi = weightManagement.rules.find((r) => r.id === 'bmi_too_low')!;
    expect(ruleWords(bmi, items)).toBe(
      'Disqualify when BMI(height, weight) < 27 or (BMI(height, weight) < 30 and “Do you have any of these conditions?” includes none of “High blood pressure”, “Type 2 diabetes or prediabetes”, “High cholesterol”, “Obstructive sleep apnea”, “Heart disease”)',
    );
    expect(ruleWords(weightManagement.rules.find((r) => r.id === 'under_18')!, items)).toBe('Disqualify when age(dob) < 18');
    expect(ruleWords(weightManagement.rules.find((r) => r.id === 'eating_disorder_past')!, items)).toBe(
      'Flag for review when “Have you been diagnosed with, or treated for, an eating disorder (ano…” is “In the past, not now”',
    );
  });

  it('says an item’s type, requiredness, identity fact, range, options and when it is shown', () => {
    expect(itemFacts(items.get('height')!, items)).toEqual(['whole number (in)', 'required', 'from 36 to 96']);
    expect(itemFacts(items.get('pregnant')!, items)).toEqual(['yes / no', 'required', 'shown only when “What sex were you assigned at birth?” is one of “Female”, “Intersex”']);
    // An identity fact (DESIGN decisions 31 and 45) is said with the item, so a changed fact shows in the diff's words.
    const dob = { linkId: 'dob', text: 'Date of birth', type: 'date', required: true, fact: 'dateOfBirth' } as const;
    expect(itemFacts(dob, items)).toEqual(['date', 'required', 'identity fact: the patient’s date of birth']);
    expect(diffQuestionnaires({ ...base, items: [{ ...dob, fact: undefined }] }, { ...base, items: [dob] }).items.changed[0].fields).toEqual(['fact']);
    expect(conditionWords({ not: { q: 'glp1_name', op: 'exists' } }, items)).toBe('“Which medication, what dose, and when was your last dose?” is not answered');
    expect(conditionWords({ not: { any: [{ q: 'pancreatitis', op: 'eq', value: true }, { q: 'gallbladder', op: 'eq', value: true }] } }, items)).toBe(
      'none of (“Have you ever had pancreatitis?” is yes; “Have you had gallbladder disease or gallstones?” is yes)',
    );
  });
});

describe('questionnaire states in words', () => {
  it('never shows the API’s tokens: pending is “pending approval”, superseded names the version approved in its place', () => {
    expect(questionnaireStatusWords('pending')).toBe('pending approval');
    expect(questionnaireStatusWords('superseded', 3)).toBe('replaced by v3 before approval');
    expect(questionnaireStatusWords('superseded')).toBe('replaced before approval');
    expect(['draft', 'approved', 'retired'].map((s) => questionnaireStatusWords(s as 'draft'))).toEqual(['draft', 'approved', 'retired']);
    const all = [{ id: 'iq_3', version: 3 }, { id: 'iq_2', version: 2 }];
    expect(replacedBy({ supersededBy: 'iq_3' }, all)).toBe(3);
    expect(replacedBy({ supersededBy: null }, all)).toBeUndefined();
  });
});

describe('an exclusive option in the words a provider reads', () => {
  it('says an option is only chosen on its own, so marking one exclusive shows in the diff', () => {
    const item = { linkId: 'conditions', text: 'Any of these?', type: 'multi_choice' as const, required: true, options: [{ value: 'htn', label: 'High blood pressure' }, { value: 'none', label: 'None of these' }] };
    const marked = { ...item, options: [item.options[0], { ...item.options[1], exclusive: true }] };
    const facts = itemFacts(marked, itemIndex([marked]));
    expect(facts.join('; ')).toContain('None of these (only on its own)');
    expect(itemFacts(item, itemIndex([item])).join('; ')).not.toContain('only on its own');
  });
});
