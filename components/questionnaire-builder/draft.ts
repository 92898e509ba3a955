import { CONDITION_OPS, DERIVED, IDENTITY_FACTS, ITEM_TYPES, UNITS, type Condition, type IdentityFact } from '@/server/domain/intake/shared/shapes';
import type { QuestionnaireDoc } from '@/components/console/intake/questionnaire-types';

/**
 * The builder's working copy of a questionnaire. Fields hold what the admin typed (numbers as text), so a
 * half-written value stays on screen and the server's validator, not the editor, says what is wrong with it.
 * Conditions name items by their editor id, not their linkId, so renaming or moving a question keeps every
 * condition that reads it; `serialize.ts` writes the document back, byte for byte where nothing was edited.
 */

export type ItemType = (typeof ITEM_TYPES)[number];
export type Op = (typeof CONDITION_OPS)[number];
export type Unit = (typeof UNITS)[number];
/** Identity facts an item may declare (DESIGN decision 31). */
// The facts an item may declare (decision 31), as the schema names them.
export const FACTS = IDENTITY_FACTS;
export type Fact = IdentityFact;

/** What a comparison reads: an item's answer, an age from a date item, a BMI from two items, or text naming nothing known. */
export type Operand = { kind: 'item'; uid: string } | { kind: 'age'; uid: string } | { kind: 'bmi'; height: string; weight: string } | { kind: 'raw'; q: string };

export interface DraftComparison {
  uid: string;
  kind: 'cmp';
  operand: Operand;
  /** The `q` as loaded, written back when the operand still means it (spacing inside bmi(…) kept). */
  loadedQ?: string;
  op: Op;
  /** A single value as typed (`true`/`false` for yes/no; `answered`/`unanswered` for exists). */
  text: string;
  /** The values of `in` / `nin`. */
  list: string[];
  negate: boolean;
  /** A loaded `exists` that wrote `value: true`, kept so an untouched document stays the same. */
  existsExplicit?: boolean;
}

export interface DraftGroup {
  uid: string;
  kind: 'group';
  join: 'all' | 'any';
  negate: boolean;
  children: DraftCondition[];
  /** Made by the editor around a lone comparison: written as that comparison alone. */
  implicit: boolean;
}

export type DraftCondition = DraftComparison | DraftGroup;

export interface DraftOption {
  uid: string;
  value: string;
  label: string;
  /** The value follows the label until the admin edits it. */
  autoValue: boolean;
  /** "None of these" (DESIGN decision 46): on a multi_choice item, never chosen with another option. */
  exclusive: boolean;
  /** Loaded with `exclusive: false` written out, kept so an untouched document stays the same. */
  exclusiveFalse?: boolean;
}

export interface DraftItem {
  uid: string;
  linkId: string;
  text: string;
  help: string;
  type: ItemType;
  required: boolean;
  options: DraftOption[];
  min: string;
  max: string;
  unit: Unit | '';
  fact: Fact | '';
  enableWhen: DraftGroup | null;
  /** Fields of the loaded item the builder does not edit, written back unchanged. */
  extra: Record<string, unknown>;
}

export interface DraftRule {
  uid: string;
  id: string;
  effect: 'disqualify' | 'review_flag';
  patientMessage: string;
  when: DraftGroup;
  extra: Record<string, unknown>;
}

export interface Draft {
  key: string;
  title: string;
  description: string;
  protocolId: string;
  items: DraftItem[];
  rules: DraftRule[];
  extra: Record<string, unknown>;
}

/**
 * Editor ids: unique within the page, never written to the document. A draft made at render (a new one, a
 * loaded version) numbers its ids from 1, so the server's HTML and the browser's first render agree (the ids
 * name options of selects and label targets); elements added later take ids of another shape (`i-7`).
 */
let counter = 0;
let next = (prefix: string) => `${prefix}-${++counter}`;
export const uid = (prefix: string) => next(prefix);

function numbered<T>(make: () => T): T {
  const outer = next;
  let n = 0;
  next = (prefix) => `${prefix}${++n}`;
  try {
    return make();
  } finally {
    next = outer;
  }
}

export const CHOICE_TYPES: readonly ItemType[] = ['choice', 'multi_choice'];
export const NUMERIC_TYPES: readonly ItemType[] = ['integer', 'decimal'];

export const newComparison = (operand: Operand = { kind: 'raw', q: '' }): DraftComparison => ({ uid: uid('c'), kind: 'cmp', operand, op: 'eq', text: '', list: [], negate: false });
export const newGroup = (children: DraftCondition[] = [newComparison()], implicit = true): DraftGroup => ({ uid: uid('g'), kind: 'group', join: 'all', negate: false, children, implicit });

/** A linkId no item uses yet: q1, q2, … */
export function freshLinkId(items: readonly DraftItem[], stem = 'q'): string {
  const taken = new Set(items.map((i) => i.linkId));
  for (let n = items.length + 1; ; n++) if (!taken.has(`${stem}${n}`)) return `${stem}${n}`;
}

export const newItem = (items: readonly DraftItem[]): DraftItem => ({
  uid: uid('i'),
  linkId: freshLinkId(items),
  text: '',
  help: '',
  type: 'boolean',
  required: true,
  options: [],
  min: '',
  max: '',
  unit: '',
  fact: '',
  enableWhen: null,
  extra: {},
});

export function freshRuleId(rules: readonly DraftRule[]): string {
  const taken = new Set(rules.map((r) => r.id));
  for (let n = rules.length + 1; ; n++) if (!taken.has(`rule${n}`)) return `rule${n}`;
}

export const newRule = (rules: readonly DraftRule[]): DraftRule => ({ uid: uid('r'), id: freshRuleId(rules), effect: 'disqualify', patientMessage: '', when: newGroup(), extra: {} });

/** An option's value from its label: lowercase words joined by underscores, as a stable answer value. */
export const slug = (label: string) =>
  label
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 100);

export const newOption = (label = '', value?: string): DraftOption => ({ uid: uid('o'), label, value: value ?? slug(label), autoValue: value === undefined, exclusive: false });

export const emptyDraft = (): Draft => numbered(() => ({ key: '', title: '', description: '', protocolId: '', items: [newItem([])], rules: [], extra: {} }));

// ---- loading a stored version -------------------------------------------------------------------------

type Scalar = string | number | boolean;
type Comparison = Extract<Condition, { op: string }>;
const text = (v: Scalar | undefined) => (v === undefined ? '' : String(v));

function operandOf(q: string, uids: Map<string, string>): Operand {
  const direct = uids.get(q);
  if (direct) return { kind: 'item', uid: direct };
  const m = DERIVED.exec(q);
  if (m?.[1] && uids.has(m[2]!)) return { kind: 'age', uid: uids.get(m[2]!)! };
  if (m?.[3] && uids.has(m[4]!) && uids.has(m[5]!)) return { kind: 'bmi', height: uids.get(m[4]!)!, weight: uids.get(m[5]!)! };
  return { kind: 'raw', q };
}

function loadComparison(c: Comparison, uids: Map<string, string>): DraftComparison {
  const base = newComparison(operandOf(c.q, uids));
  const v = c.value;
  return {
    ...base,
    loadedQ: c.q,
    op: c.op,
    text: c.op === 'exists' ? (v === false ? 'unanswered' : 'answered') : Array.isArray(v) ? '' : text(v),
    list: Array.isArray(v) ? v.map(String) : [],
    existsExplicit: c.op === 'exists' && v === true,
  };
}

function loadCondition(c: Condition, uids: Map<string, string>): DraftCondition {
  if ('all' in c || 'any' in c) {
    const join = 'all' in c ? 'all' : 'any';
    const children = ('all' in c ? c.all : c.any).map((x) => loadCondition(x, uids));
    return { ...newGroup(children, false), join };
  }
  if ('not' in c) {
    const inner = loadCondition(c.not, uids);
    // A double negation has no place of its own on screen: it becomes "not all of (not …)", which means the same.
    if (inner.negate) return { ...newGroup([inner], false), negate: true };
    return { ...inner, negate: true };
  }
  return loadComparison(c, uids);
}

/** A top-level condition, always edited as a group: a lone comparison gets an implicit one. */
function loadTop(c: Condition, uids: Map<string, string>): DraftGroup {
  const loaded = loadCondition(c, uids);
  return loaded.kind === 'group' ? loaded : newGroup([loaded], true);
}

const pick = <T extends object>(obj: T, known: readonly string[]) => Object.fromEntries(Object.entries(obj).filter(([k]) => !known.includes(k)));
const ITEM_FIELDS = ['linkId', 'text', 'help', 'type', 'required', 'options', 'min', 'max', 'unit', 'fact', 'enableWhen'];
const RULE_FIELDS = ['id', 'when', 'effect', 'patientMessage'];
const DOC_FIELDS = ['key', 'title', 'description', 'protocolId', 'items', 'rules'];

/** A stored document as a working copy (its key kept: publishing makes its next version). */
export function loadDraft(doc: QuestionnaireDoc): Draft {
  return numbered(() => loadNumbered(doc));
}

function loadNumbered(doc: QuestionnaireDoc): Draft {
  const items = doc.items.map((i) => ({ i, uid: uid('i') }));
  const uids = new Map<string, string>();
  for (const { i, uid: u } of items) if (!uids.has(i.linkId)) uids.set(i.linkId, u);
  return {
    key: doc.key,
    title: doc.title,
    description: doc.description ?? '',
    protocolId: doc.protocolId ?? '',
    extra: pick(doc, DOC_FIELDS),
    items: items.map(({ i, uid: u }) => {
      const fact = (i as { fact?: unknown }).fact;
      return {
        uid: u,
        linkId: i.linkId,
        text: i.text,
        help: i.help ?? '',
        type: i.type,
        required: i.required,
        options: (i.options ?? []).map((o) => ({ ...newOption(o.label, o.value), autoValue: false, exclusive: o.exclusive === true, ...(o.exclusive === false && { exclusiveFalse: true }) })),
        min: text(i.min),
        max: text(i.max),
        unit: i.unit ?? '',
        fact: FACTS.includes(fact as Fact) ? (fact as Fact) : '',
        enableWhen: i.enableWhen ? loadTop(i.enableWhen, uids) : null,
        extra: pick(i, ITEM_FIELDS),
      };
    }),
    rules: doc.rules.map((r) => ({ uid: uid('r'), id: r.id, effect: r.effect, patientMessage: r.patientMessage, when: loadTop(r.when, uids), extra: pick(r, RULE_FIELDS) })),
  };
}

// ---- small edits ----------------------------------------------------------------------------------------

export function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [x] = next.splice(from, 1);
  next.splice(to, 0, x!);
  return next;
}

/** Applies `fn` to every comparison of a condition tree. */
export function mapComparisons(g: DraftGroup, fn: (c: DraftComparison) => DraftComparison): DraftGroup {
  const walk = (c: DraftCondition): DraftCondition => (c.kind === 'cmp' ? fn(c) : { ...c, children: c.children.map(walk) });
  return walk(g) as DraftGroup;
}

/** Every condition of the draft (items' and rules'), with `fn` applied to each comparison. */
export function mapAllComparisons(d: Draft, fn: (c: DraftComparison) => DraftComparison): Draft {
  return {
    ...d,
    items: d.items.map((i) => (i.enableWhen ? { ...i, enableWhen: mapComparisons(i.enableWhen, fn) } : i)),
    rules: d.rules.map((r) => ({ ...r, when: mapComparisons(r.when, fn) })),
  };
}

/** An option's value changed: comparisons on that item that chose the old value now choose the new one. */
export function renameOptionValue(d: Draft, itemUid: string, from: string, to: string): Draft {
  if (from === to || from === '') return d;
  return mapAllComparisons(d, (c) =>
    c.operand.kind === 'item' && c.operand.uid === itemUid ? { ...c, text: c.text === from ? to : c.text, list: c.list.map((v) => (v === from ? to : v)) } : c,
  );
}
