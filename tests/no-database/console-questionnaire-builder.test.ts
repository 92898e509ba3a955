import { describe, expect, it } from 'vitest';
import { emptyDraft, loadDraft, mapAllComparisons, move, newComparison, newGroup, newItem, renameOptionValue, type DraftComparison } from '@/components/questionnaire-builder/draft';
import { build, placeOf } from '@/components/questionnaire-builder/serialize';
import { operandChoices, opsFor } from '@/components/questionnaire-builder/operands';
import { placeProblems } from '@/components/questionnaire-builder/problems';
import { adminMessage } from '@/components/questionnaire-builder/problem-words';
import { describeProblems } from '@/server/domain/intake/questionnaire-problems';
import type { QuestionnaireDoc } from '@/components/console/intake/questionnaire-types';
import { libraryDocuments } from '@/server/domain/intake/library-documents';
import { validateQuestionnaire } from '@/server/domain/intake/validate';
import { canonicalHash } from '@/server/lib/canonical';

/**
 * Issue 33, item 9: the console builder's working copy. A stored version loaded and written back untouched is
 * the same document (same content hash), so "start from the latest version" never shows a provider a change
 * nobody made; conditions follow renamed and moved questions; a problem's path lands on the element that
 * wrote it.
 */

const nested: QuestionnaireDoc = {
  key: 'nested',
  title: 'Nested conditions',
  items: [
    { linkId: 'dob', text: 'Date of birth', type: 'date', required: true },
    { linkId: 'height', text: 'Height', type: 'integer', required: true, min: 36, max: 96, unit: 'in' },
    { linkId: 'weight', text: 'Weight', type: 'decimal', required: true, unit: 'lb' },
    { linkId: 'conditions', text: 'Conditions', type: 'multi_choice', required: true, options: [{ value: 'hypertension', label: 'High blood pressure' }, { value: 'none', label: 'None' }] },
    { linkId: 'notes', text: 'Notes', type: 'text', required: false, enableWhen: { not: { q: 'conditions', op: 'in', value: ['none'] } } },
    { linkId: 'dose', text: 'Dose', type: 'integer', required: false, enableWhen: { all: [{ q: 'notes', op: 'exists', value: true }] } },
  ],
  rules: [
    { id: 'bmi', when: { any: [{ q: 'bmi(height,weight)', op: 'lt', value: 27 }, { all: [{ q: 'bmi(height, weight)', op: 'lt', value: 30 }, { not: { q: 'conditions', op: 'in', value: ['hypertension'] } }] }] }, effect: 'disqualify', patientMessage: 'BMI.' },
    { id: 'age', when: { q: 'age(dob)', op: 'gte', value: 40 }, effect: 'review_flag', patientMessage: 'Dose review.' },
    { id: 'unanswered', when: { not: { any: [{ q: 'dose', op: 'exists', value: false }, { q: 'dose', op: 'in', value: [1, 2.5] }] } }, effect: 'review_flag', patientMessage: 'Dose.' },
  ],
};

describe('loading a version and writing it back', () => {
  it('gives the same document for every built-in template and for nested, negated and derived conditions', () => {
    for (const doc of [...(libraryDocuments() as QuestionnaireDoc[]), nested]) {
      const again = build(loadDraft(doc)).doc;
      expect(canonicalHash(again), doc.key).toBe(canonicalHash(doc));
      expect(validateQuestionnaire(again).ok, doc.key).toBe(true);
    }
  });

  it('numbers a loaded draft’s editor ids the same way every time, so the server’s HTML and the browser agree', () => {
    expect(loadDraft(nested)).toEqual(loadDraft(nested));
    expect(emptyDraft()).toEqual(emptyDraft());
    // Elements added afterwards take ids of another shape, which no loaded draft uses.
    expect(newItem([]).uid).toMatch(/^i-\d+$/);
  });

  it('keeps fields it does not edit (a fact declared by a newer schema) and the identity facts it does', () => {
    const withFact = { ...nested, items: nested.items.map((i) => (i.linkId === 'dob' ? { ...i, fact: 'dateOfBirth', future: 1 } : i)) } as QuestionnaireDoc;
    const draft = loadDraft(withFact);
    expect(draft.items[0]).toMatchObject({ fact: 'dateOfBirth', extra: { future: 1 } });
    expect(build(draft).doc.items[0]).toEqual({ linkId: 'dob', text: 'Date of birth', type: 'date', required: true, fact: 'dateOfBirth', future: 1 });
  });
});

describe('editing', () => {
  it('carries a renamed or moved question into every condition that reads it', () => {
    const draft = loadDraft(nested);
    draft.items[1] = { ...draft.items[1]!, linkId: 'height_in' };
    draft.items[0] = { ...draft.items[0]!, linkId: 'birth' };
    const doc = build({ ...draft, items: move(draft.items, 3, 0) }).doc;
    expect(JSON.stringify(doc.rules)).toContain('"q":"bmi(height_in, weight)"');
    expect(JSON.stringify(doc.rules)).toContain('"q":"age(birth)"');
    // Moved first, `conditions` is still what `notes` reads.
    expect(doc.items[0]).toMatchObject({ linkId: 'conditions' });
    expect(doc.items[4]).toMatchObject({ linkId: 'notes', enableWhen: { not: { q: 'conditions', op: 'in', value: ['none'] } } });
  });

  it('marks an option exclusive ("None of these", decision 46) on a multi_choice only, and writes nothing otherwise', () => {
    const draft = loadDraft(nested);
    const conditions = draft.items[3]!;
    expect(conditions.options.map((o) => o.exclusive)).toEqual([false, false]);
    draft.items[3] = { ...conditions, options: conditions.options.map((o) => (o.value === 'none' ? { ...o, exclusive: true } : o)) };
    const marked = build(draft).doc;
    expect(marked.items[3]!.options).toEqual([{ value: 'hypertension', label: 'High blood pressure' }, { value: 'none', label: 'None', exclusive: true }]);
    expect(validateQuestionnaire(marked).ok).toBe(true);
    // Loaded again it stays marked; as a single choice it is not written (a radio takes one answer already).
    expect(loadDraft(marked as QuestionnaireDoc).items[3]!.options.map((o) => o.exclusive)).toEqual([false, true]);
    draft.items[3] = { ...draft.items[3]!, type: 'choice' };
    expect(build(draft).doc.items[3]!.options).toEqual([{ value: 'hypertension', label: 'High blood pressure' }, { value: 'none', label: 'None' }]);
    // An `exclusive: false` written by an API client is kept: loaded and written back untouched, the same hash.
    const spelled = structuredClone(nested) as QuestionnaireDoc;
    spelled.items[3]!.options = spelled.items[3]!.options!.map((o) => ({ ...o, exclusive: o.value === 'none' }));
    expect(canonicalHash(build(loadDraft(spelled)).doc)).toBe(canonicalHash(spelled));
  });

  it('renames an option value in the comparisons that chose it', () => {
    const draft = loadDraft(nested);
    const conditions = draft.items[3]!;
    const renamed = renameOptionValue(draft, conditions.uid, 'hypertension', 'high_bp');
    expect(JSON.stringify(build(renamed).doc.rules[0])).toContain('["high_bp"]');
  });

  it('writes numbers, yes/no and dates as the question’s type, and leaves what does not parse for the validator to name', () => {
    const d = emptyDraft();
    const age = newItem(d.items);
    d.items = [{ ...d.items[0]!, linkId: 'dob', text: 'Born', type: 'date' }, { ...age, linkId: 'kg', text: 'Weight', type: 'decimal', min: 'ten' }];
    const cmp = (over: Partial<DraftComparison>) => ({ ...newComparison({ kind: 'item', uid: d.items[1]!.uid }), ...over });
    d.items[1]!.enableWhen = newGroup([cmp({ operand: { kind: 'age', uid: d.items[0]!.uid }, op: 'gte', text: '18' })]);
    d.rules = [{ uid: 'r', id: 'heavy', effect: 'disqualify', patientMessage: 'No.', when: newGroup([cmp({ op: 'in', list: ['100', '1e3', 'x'] })], true), extra: {} }];
    const doc = build({ ...d, key: 'k', title: 't' }).doc;
    expect(doc.items[1]).toMatchObject({ min: 'ten', enableWhen: { q: 'age(dob)', op: 'gte', value: 18 } });
    expect(doc.rules[0]).toMatchObject({ when: { q: 'kg', op: 'in', value: [100, 1000, 'x'] } });
    const check = validateQuestionnaire(doc);
    expect(check.ok).toBe(false);
  });

  it('offers only earlier questions (and age, BMI) to a question’s condition, and the operators its type allows', () => {
    const draft = loadDraft(nested);
    expect(operandChoices(draft.items, 3).map((c) => c.label)).toEqual(['dob – Date of birth', 'height – Height', 'weight – Weight', 'Age in years, from dob', 'BMI, from height (in) and weight (lb)']);
    expect(opsFor('boolean')).toEqual(['eq', 'neq', 'exists']);
    expect(opsFor('multi_choice')).not.toContain('gt');
    expect(opsFor('date')).toContain('lte');
  });
});

describe('problems beside what they concern', () => {
  it('places each validator problem on the element that wrote its path', () => {
    const draft = loadDraft(nested);
    const notes = draft.items[4]!;
    const { doc, places } = build(draft);
    const check = validateQuestionnaire({ ...doc, items: doc.items.map((i, n) => (n === 5 ? { ...i, enableWhen: { all: [{ q: 'nowhere', op: 'exists', value: true }] } } : i)) });
    expect(check.ok).toBe(false);
    // notes' negated comparison: the path goes through `not`.
    expect(placeOf('items.4.enableWhen.not.value.0', places)).toEqual({ uid: (notes.enableWhen!.children[0] as DraftComparison).uid, field: 'value' });
    expect(placeOf('items.2.unit', places)).toEqual({ uid: draft.items[2]!.uid, field: 'unit' });
    expect(placeOf('title', places)).toEqual({ uid: 'doc', field: 'title' });
    expect(placeOf('', places)).toEqual({ uid: 'doc', field: '' });
    const [placed] = placeProblems([{ param: 'items.5.enableWhen.all.0.q', message: "item 'dose' (items.5.enableWhen.all.0.q): The condition refers to \"nowhere\"." }], places);
    expect(placed).toMatchObject({ place: { field: 'q' }, short: 'The condition refers to "nowhere".' });
  });

  it('every comparison in the tree is reached by mapAllComparisons', () => {
    let seen = 0;
    mapAllComparisons(loadDraft(nested), (c) => (seen++, c));
    expect(seen).toBe(8);
  });
});

describe('problems in an admin’s words (issue 50, item 5)', () => {
  // The document the builder sends, broken one typical way at a time; checked by the API's own validator and
  // worded as its endpoint words them (location first), then placed as the builder places them.
  const mistakes: Record<string, { break(d: QuestionnaireDoc): void; says: string }> = {
    'empty question text': { break: (d) => void (d.items[0]!.text = ''), says: 'Give this question its text.' },
    'option without a label': { break: (d) => void (d.items[3]!.options![0]!.label = ''), says: 'An option needs a label.' },
    'option without a value': { break: (d) => void (d.items[3]!.options![0]!.value = ''), says: 'An option needs a value.' },
    'duplicate linkId': { break: (d) => void (d.items[2]!.linkId = 'height'), says: 'Question 2 already uses the id "height"; each question needs its own id.' },
    'rule referencing a missing question': { break: (d) => void (d.rules[1]!.when = { q: 'gone', op: 'eq', value: 1 }), says: 'This condition refers to "gone", which is not a question in this questionnaire.' },
    'min above max': { break: (d) => void (d.items[1]!.min = 100), says: 'The maximum (96) is below the minimum (100); make the maximum at least the minimum.' },
    'empty title': { break: (d) => void (d.title = ''), says: 'Give the questionnaire a title.' },
    'choice without options': { break: (d) => void (d.items[3]!.options = []), says: 'A choice question needs at least one option.' },
    'empty patient message': { break: (d) => void (d.rules[0]!.patientMessage = ''), says: 'Write the message the patient sees when this rule applies.' },
    'unknown comparison': { break: (d) => void (d.rules[1]!.when = { q: 'age(dob)', op: 'zz', value: 40 } as never), says: 'This condition is incomplete: choose a question, how it is compared and a value.' },
    'text too long': { break: (d) => void (d.items[0]!.text = 'x'.repeat(5000)), says: 'This is too long: keep it to 1000 characters or fewer.' },
    'bad question id': { break: (d) => void (d.items[0]!.linkId = '1 dob'), says: 'A question id starts with a letter and has only letters, digits, _ or - (at most 64 characters).' },
    'unknown question type': { break: (d) => void (d.items[0]!.type = 'essay' as never), says: 'Choose a question type.' },
  };
  const RAW = /expected|Invalid input|Invalid option|>=|<=|received|Too (small|big)|items\.\d|rules\.\d/;

  for (const [name, { break: breakIt, says }] of Object.entries(mistakes)) {
    it(`${name}: a plain sentence, never the validator's default text`, () => {
      const doc = structuredClone(nested);
      breakIt(doc);
      const check = validateQuestionnaire(doc);
      if (check.ok) throw new Error(`${name} was accepted`);
      const { places } = build(loadDraft(structuredClone(nested)));
      const placed = placeProblems(describeProblems(doc, check.problems), places);
      expect(placed.map((p) => p.short)).toContain(says);
      for (const p of placed) expect(p.short).not.toMatch(RAW);
    });
  }

  it('keeps the API’s params and unknown hand-written sentences, renaming paths to what the builder numbers', () => {
    expect(adminMessage('items.2.text', 'Too small: expected string to have >=1 characters')).toBe('Give this question its text.');
    expect(adminMessage('items.0.x', 'Something about items.4 and rules.0.')).toBe('Something about question 5 and rule 1.');
    expect(adminMessage('whatever', 'Invalid input: expected object, received string')).not.toMatch(RAW);
  });
});
