import { CHOICE_TYPES, NUMERIC_TYPES, type DraftItem, type Op, type Operand } from './draft';
import { operandKind } from './serialize';

/**
 * What a condition may read and how it may compare, as the validator allows (DESIGN decision 18): an earlier
 * item's answer (any item, for a rule), `age(<date item>)`, `bmi(<height in cm|in>, <weight in kg|lb>)`; and
 * per kind of value, the operators that can hold for it.
 */

export interface OperandChoice {
  /** The select's value: `item:<uid>`, `age:<uid>`, `bmi:<uid>:<uid>`, `raw:<q>`. */
  key: string;
  label: string;
  operand: Operand;
}

export const operandKey = (o: Operand) =>
  o.kind === 'item' ? `item:${o.uid}` : o.kind === 'age' ? `age:${o.uid}` : o.kind === 'bmi' ? `bmi:${o.height}:${o.weight}` : `raw:${o.q}`;

const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const named = (i: DraftItem) => `${i.linkId || '(no id)'}${i.text.trim() ? ` – ${clip(i.text.trim())}` : ''}`;

/** The operands a condition of the item at `before` (or of a rule: every item) may read, in document order. */
export function operandChoices(items: readonly DraftItem[], before: number): OperandChoice[] {
  const earlier = items.slice(0, before);
  const out: OperandChoice[] = earlier.map((i) => ({ key: `item:${i.uid}`, label: named(i), operand: { kind: 'item', uid: i.uid } }));
  for (const d of earlier.filter((i) => i.type === 'date')) out.push({ key: `age:${d.uid}`, label: `Age in years, from ${d.linkId}`, operand: { kind: 'age', uid: d.uid } });
  const numeric = earlier.filter((i) => NUMERIC_TYPES.includes(i.type));
  const heights = numeric.filter((i) => i.unit === 'cm' || i.unit === 'in');
  const weights = numeric.filter((i) => i.unit === 'kg' || i.unit === 'lb');
  for (const h of heights)
    for (const w of weights) out.push({ key: `bmi:${h.uid}:${w.uid}`, label: `BMI, from ${h.linkId} (${h.unit}) and ${w.linkId} (${w.unit})`, operand: { kind: 'bmi', height: h.uid, weight: w.uid } });
  return out;
}

/** The label of an operand that is not among the choices (a later item, a removed one): said as it is. */
export function strayLabel(o: Operand, items: readonly DraftItem[]): string {
  const find = (u: string) => items.find((i) => i.uid === u);
  if (o.kind === 'raw') return o.q ? `${o.q} (not an item of this questionnaire)` : 'Choose what to check…';
  if (o.kind === 'item') {
    const i = find(o.uid);
    return i ? `${named(i)} (not before this question)` : 'A removed question';
  }
  if (o.kind === 'age') return `Age from ${find(o.uid)?.linkId ?? 'a removed question'} (not a usable date question here)`;
  return `BMI from ${find(o.height)?.linkId ?? '?'} and ${find(o.weight)?.linkId ?? '?'} (not usable here)`;
}

export type Kind = ReturnType<typeof operandKind>;

const ORDERED: Op[] = ['eq', 'neq', 'in', 'nin', 'gt', 'gte', 'lt', 'lte', 'exists'];

/** The operators that can hold for a kind of value. */
export function opsFor(kind: Kind): Op[] {
  if (kind === 'boolean') return ['eq', 'neq', 'exists'];
  if (kind === 'number' || kind === 'date' || NUMERIC_TYPES.includes(kind as DraftItem['type'])) return ORDERED;
  return ['eq', 'neq', 'in', 'nin', 'exists'];
}

/** An operator in words, for its kind of value ("includes" for several choices, "is before" for dates). */
export function opWords(op: Op, kind: Kind): string {
  const multi = kind === 'multi_choice';
  const date = kind === 'date';
  const words: Record<Op, string> = {
    eq: multi ? 'includes' : 'is',
    neq: multi ? 'does not include' : 'is not',
    in: multi ? 'includes any of' : 'is one of',
    nin: multi ? 'includes none of' : 'is none of',
    gt: date ? 'is after' : 'is more than',
    gte: date ? 'is on or after' : 'is at least',
    lt: date ? 'is before' : 'is less than',
    lte: date ? 'is on or before' : 'is at most',
    exists: 'is answered or not',
  };
  return words[op];
}

export const isChoiceKind = (kind: Kind) => CHOICE_TYPES.includes(kind as DraftItem['type']);
export const isListOp = (op: Op) => op === 'in' || op === 'nin';
