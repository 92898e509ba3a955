import type { QCondition, QItem, QRule } from './questionnaire-types';

/**
 * Questionnaires in plain words, for the provider who approves them: conditions ("BMI(height, weight) < 27
 * and “Do you have any of these conditions?” includes none of …"), items and rules. Pure: the library
 * page, the approval page and the diff all say the same thing the same way.
 */

type Scalar = string | number | boolean;
type Comparison = Extract<QCondition, { op: string }>;

const DERIVED = /^(age)\(\s*([A-Za-z][\w-]*)\s*\)$|^(bmi)\(\s*([A-Za-z][\w-]*)\s*,\s*([A-Za-z][\w-]*)\s*\)$/;

export const TYPE_WORDS: Record<QItem['type'], string> = {
  boolean: 'yes / no',
  choice: 'one choice',
  multi_choice: 'several choices',
  integer: 'whole number',
  decimal: 'number',
  date: 'date',
  string: 'short text',
  text: 'long text',
};

/** The identity facts an item may declare (DESIGN decision 31), in words. */
export const FACT_WORDS: Record<NonNullable<QItem['fact']>, string> = { dateOfBirth: 'Date of birth', sexAtBirth: 'Sex at birth', state: 'State of residence' };

/** "identity fact: the patient’s date of birth": what an item's answer also stands for, on the patient's record. */
export const factWords = (fact: NonNullable<QItem['fact']>) => `identity fact: the patient’s ${FACT_WORDS[fact].toLowerCase()}`;

const clip = (s: string, n = 70) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** How a condition names what it reads: an item by its question, a derived value by its formula. */
function subject(q: string, items: Map<string, QItem>): string {
  const item = items.get(q);
  if (item) return `“${clip(item.text)}”`;
  const m = DERIVED.exec(q);
  if (m?.[1]) return `age(${m[2]})`;
  if (m?.[3]) return `BMI(${m[4]}, ${m[5]})`;
  return q;
}

function valueWords(v: Scalar, item: QItem | undefined): string {
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  const label = item?.options?.find((o) => o.value === v)?.label;
  if (label) return `“${label}”`;
  return typeof v === 'string' ? `“${v}”` : String(v);
}

const list = (vs: Scalar[], item: QItem | undefined) => vs.map((v) => valueWords(v, item)).join(', ');

function comparisonWords(c: Comparison, items: Map<string, QItem>): string {
  const item = items.get(c.q);
  const who = subject(c.q, items);
  const multi = item?.type === 'multi_choice';
  const v = c.value;
  const one = (x: typeof v) => (x === undefined || Array.isArray(x) ? '?' : valueWords(x, item));
  const many = (x: typeof v) => (Array.isArray(x) ? list(x, item) : one(x));
  switch (c.op) {
    case 'exists':
      return `${who} ${v === false ? 'is not answered' : 'is answered'}`;
    case 'eq':
      return `${who} ${multi ? 'includes' : 'is'} ${one(v)}`;
    case 'neq':
      return `${who} ${multi ? 'does not include' : 'is not'} ${one(v)}`;
    case 'in':
      return `${who} ${multi ? 'includes any of' : 'is one of'} ${many(v)}`;
    case 'nin':
      return `${who} ${multi ? 'includes none of' : 'is none of'} ${many(v)}`;
    case 'gt':
      return `${who} > ${one(v)}`;
    case 'gte':
      return `${who} ≥ ${one(v)}`;
    case 'lt':
      return `${who} < ${one(v)}`;
    case 'lte':
      return `${who} ≤ ${one(v)}`;
  }
}

const OPPOSITE: Partial<Record<Comparison['op'], Comparison['op']>> = { eq: 'neq', neq: 'eq', in: 'nin', nin: 'in', exists: 'exists' };

/** A condition in words; compound parts nested inside another are bracketed so "and" and "or" never blur. */
export function conditionWords(c: QCondition, items: Map<string, QItem>, nested = false): string {
  const wrap = (s: string) => (nested ? `(${s})` : s);
  if ('all' in c) return wrap(c.all.map((x) => conditionWords(x, items, true)).join(' and '));
  if ('any' in c) return wrap(c.any.map((x) => conditionWords(x, items, true)).join(' or '));
  if ('not' in c) {
    const inner = c.not;
    if ('any' in inner) return `none of (${inner.any.map((x) => conditionWords(x, items, false)).join('; ')})`;
    // A negated comparison reads better as its opposite: "includes none of …" rather than "not includes any of …".
    if ('op' in inner && inner.op in OPPOSITE) {
      const op = OPPOSITE[inner.op]!;
      const value = inner.op === 'exists' ? inner.value === false : inner.value;
      return comparisonWords({ ...inner, op, value }, items);
    }
    return `not ${conditionWords(inner, items, true)}`;
  }
  return comparisonWords(c, items);
}

export const itemIndex = (items: readonly QItem[]) => new Map(items.map((i) => [i.linkId, i]));

/** "Disqualify when …" / "Flag for review when …". */
export function ruleWords(rule: QRule, items: Map<string, QItem>): string {
  return `${rule.effect === 'disqualify' ? 'Disqualify' : 'Flag for review'} when ${conditionWords(rule.when, items)}`;
}

/** The facts of an item besides its question: answer type, required, identity fact, range and unit, options, when it shows. */
export function itemFacts(item: QItem, items: Map<string, QItem>): string[] {
  const facts = [`${TYPE_WORDS[item.type]}${item.unit ? ` (${item.unit})` : ''}`, item.required ? 'required' : 'optional'];
  if (item.fact) facts.push(factWords(item.fact));
  if (item.min !== undefined || item.max !== undefined) facts.push(`from ${item.min ?? '…'} to ${item.max ?? '…'}`);
  // An exclusive option ("None of these") is part of what the patient can answer: a change to it shows in the diff.
  if (item.options) facts.push(`options: ${item.options.map((o) => `${o.label}${o.exclusive ? ' (only on its own)' : ''}`).join(', ')}`);
  if (item.enableWhen) facts.push(`shown only when ${conditionWords(item.enableWhen, items)}`);
  return facts;
}
