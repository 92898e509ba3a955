import { isCalendarDate } from './answers';
import { compileCondition, resolveOperand, type Operand } from './engine';
import { ZQuestionnaireDocument, type Condition, type QuestionnaireDocument, type QuestionnaireItem } from './questionnaire-schema';

/**
 * The one validator every questionnaire passes, hand-written, AI-drafted or seeded (DESIGN decision 18): the zod
 * schema, then the semantic checks below. Problems carry a dotted path from the document root
 * (`items.3.enableWhen.q`, `rules.0.when`); callers prefix their body field.
 */

export interface DocumentProblem {
  /** Dotted path inside the document, e.g. `items.3.enableWhen.q` (callers prefix their body field). */
  param: string;
  message: string;
}

export type DocumentCheck = { ok: true; document: QuestionnaireDocument } | { ok: false; problems: DocumentProblem[] };

const NUMERIC = new Set(['integer', 'decimal']);
const CHOICE = new Set(['choice', 'multi_choice']);
const ORDERING = new Set(['gt', 'gte', 'lt', 'lte']);

export function validateQuestionnaire(input: unknown): DocumentCheck {
  const parsed = ZQuestionnaireDocument.safeParse(input);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((i) => ({ param: i.path.join('.'), message: i.message })) };
  const problems = semanticProblems(parsed.data);
  return problems.length ? { ok: false, problems } : { ok: true, document: parsed.data };
}

/** The checks zod cannot express. Exported for tests; expects a schema-valid document. */
export function semanticProblems(doc: QuestionnaireDocument): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const add = (param: string, message: string) => problems.push({ param, message });

  const index = new Map<string, number>();
  doc.items.forEach((item, i) => {
    const first = index.get(item.linkId);
    if (first !== undefined) add(`items.${i}.linkId`, `linkId "${item.linkId}" is already used by items.${first}; linkIds must be unique.`);
    else index.set(item.linkId, i);
    checkItemShape(item, `items.${i}`, add);
  });

  const ruleIds = new Map<string, number>();
  doc.rules.forEach((rule, r) => {
    const first = ruleIds.get(rule.id);
    if (first !== undefined) add(`rules.${r}.id`, `rule id "${rule.id}" is already used by rules.${first}; rule ids must be unique.`);
    else ruleIds.set(rule.id, r);
  });

  // References and value fit. enableWhen may look only at earlier items, so the engine can go in one pass.
  doc.items.forEach((item, i) => {
    if (item.enableWhen) checkCondition(doc, index, item.enableWhen, `items.${i}.enableWhen`, i, add);
  });
  doc.rules.forEach((rule, r) => checkCondition(doc, index, rule.when, `rules.${r}.when`, Infinity, add));

  // Reachability, only once the references are sound (otherwise the analysis would report echoes).
  if (problems.length === 0) problems.push(...reachabilityProblems(doc));
  return problems;
}

function checkItemShape(item: QuestionnaireItem, at: string, add: (p: string, m: string) => void) {
  const id = `Item "${item.linkId}"`;
  if (CHOICE.has(item.type)) {
    if (!item.options) add(`${at}.options`, `${id} is ${item.type} and needs options.`);
    else {
      const seen = new Map<string, number>();
      item.options.forEach((o, k) => {
        const first = seen.get(o.value);
        if (first !== undefined) add(`${at}.options.${k}.value`, `${id} lists option value "${o.value}" twice (also options.${first}).`);
        else seen.set(o.value, k);
      });
    }
  } else if (item.options) add(`${at}.options`, `${id} is ${item.type}; only choice and multi_choice items have options.`);
  if (!NUMERIC.has(item.type)) {
    if (item.min !== undefined) add(`${at}.min`, `${id} is ${item.type}; min applies to integer and decimal items only.`);
    if (item.max !== undefined) add(`${at}.max`, `${id} is ${item.type}; max applies to integer and decimal items only.`);
    if (item.unit !== undefined) add(`${at}.unit`, `${id} is ${item.type}; unit applies to integer and decimal items only.`);
  } else if (item.min !== undefined && item.max !== undefined && item.min > item.max) {
    add(`${at}.max`, `${id} has max ${item.max} below its min ${item.min}.`);
  }
}

function walk(c: Condition, at: string, visit: (cmp: Extract<Condition, { q: string }>, at: string) => void) {
  if ('all' in c) c.all.forEach((x, k) => walk(x, `${at}.all.${k}`, visit));
  else if ('any' in c) c.any.forEach((x, k) => walk(x, `${at}.any.${k}`, visit));
  else if ('not' in c) walk(c.not, `${at}.not`, visit);
  else visit(c, at);
}

/** The linkIds `q` mentions (one item, or the one or two arguments of a derived value). */
function mentioned(q: string): string[] {
  const m = /^\s*(?:age|bmi)\(([^)]*)\)\s*$/.exec(q);
  return m ? m[1]!.split(',').map((s) => s.trim()) : [q];
}

/** The type a comparison value must have for an operand: an item's type, or `number` for derived values. */
type ValueKind = QuestionnaireItem['type'] | 'number';

function checkCondition(
  doc: QuestionnaireDocument,
  index: Map<string, number>,
  cond: Condition,
  root: string,
  before: number,
  add: (p: string, m: string) => void,
) {
  walk(cond, root, (cmp, at) => {
    const operand = resolveOperand(cmp.q, index);
    let kind: ValueKind;
    let item: QuestionnaireItem | undefined;
    if (operand.kind === 'unknown') {
      const names = mentioned(cmp.q);
      const unknown = names.find((n) => !index.has(n));
      add(`${at}.q`, unknown !== undefined && /^[A-Za-z]/.test(cmp.q) && unknown.length <= 64
        ? `The condition refers to "${unknown}", which is not an item of this questionnaire (or not age(<date item>) / bmi(<height item>, <weight item>)).`
        : 'The condition must name an item linkId, age(<date item>) or bmi(<height item>, <weight item>).');
      return;
    }
    const refs = referencedIndexes(operand);
    const missing = refs.find((r) => r < 0);
    if (missing !== undefined) {
      const unknown = mentioned(cmp.q).find((n) => !index.has(n));
      add(`${at}.q`, `The condition refers to "${unknown}", which is not an item of this questionnaire.`);
      return;
    }
    const late = refs.find((r) => r >= before);
    if (late !== undefined) {
      add(`${at}.q`, `enableWhen may only refer to earlier items; "${doc.items[late]!.linkId}" is items.${late}, at or after this item.`);
      return;
    }
    if (operand.kind === 'age') {
      const dob = doc.items[operand.index]!;
      if (dob.type !== 'date') return add(`${at}.q`, `age() needs a date item; "${dob.linkId}" is ${dob.type}.`);
      kind = 'number';
    } else if (operand.kind === 'bmi') {
      const h = doc.items[operand.height]!;
      const w = doc.items[operand.weight]!;
      for (const [it, units, role] of [
        [h, ['cm', 'in'], 'height'],
        [w, ['kg', 'lb'], 'weight'],
      ] as const) {
        if (!NUMERIC.has(it.type)) return add(`${at}.q`, `bmi() needs an integer or decimal ${role} item; "${it.linkId}" is ${it.type}.`);
        if (it.unit !== undefined && !(units as readonly string[]).includes(it.unit))
          return add(`${at}.q`, `bmi() needs the ${role} in ${units.join(' or ')}; "${it.linkId}" is in ${it.unit}.`);
      }
      kind = 'number';
    } else {
      item = doc.items[operand.index]!;
      kind = item.type;
    }
    checkValue(cmp, kind, item, at, add);
  });
}

function referencedIndexes(o: Operand): number[] {
  if (o.kind === 'item' || o.kind === 'age') return [o.index];
  if (o.kind === 'bmi') return [o.height, o.weight];
  return [];
}

function checkValue(
  cmp: { q: string; op: string; value?: unknown },
  kind: ValueKind,
  item: QuestionnaireItem | undefined,
  at: string,
  add: (p: string, m: string) => void,
) {
  const v = cmp.value;
  const subject = item ? `item "${item.linkId}" (${item.type})` : cmp.q;
  if (cmp.op === 'exists') {
    if (v !== undefined && typeof v !== 'boolean') add(`${at}.value`, `exists takes true, false or no value.`);
    return;
  }
  if (cmp.op === 'in' || cmp.op === 'nin') {
    if (!Array.isArray(v) || v.length === 0) return add(`${at}.value`, `${cmp.op} needs a non-empty list of values for ${subject}.`);
    v.forEach((x, k) => {
      const why = misfit(kind, item, x);
      if (why) add(`${at}.value.${k}`, `${subject}: ${why}`);
    });
    return;
  }
  if (Array.isArray(v) || v === undefined) return add(`${at}.value`, `${cmp.op} needs a single value for ${subject}.`);
  if (ORDERING.has(cmp.op)) {
    if (kind === 'number' || NUMERIC.has(kind)) {
      if (typeof v !== 'number') add(`${at}.value`, `${cmp.op} on ${subject} needs a number.`);
    } else if (kind === 'date') {
      if (!isCalendarDate(v)) add(`${at}.value`, `${cmp.op} on ${subject} needs a date written YYYY-MM-DD.`);
    } else add(`${at}.op`, `${cmp.op} compares numbers and dates only; ${subject} is neither.`);
    return;
  }
  const why = misfit(kind, item, v);
  if (why) add(`${at}.value`, `${subject}: ${why}`);
}

/** Why a comparison value cannot equal any answer of the operand, or null. */
function misfit(kind: ValueKind, item: QuestionnaireItem | undefined, v: unknown): string | null {
  switch (kind) {
    case 'boolean':
      return typeof v === 'boolean' ? null : 'compare with true or false.';
    case 'choice':
    case 'multi_choice':
      return typeof v === 'string' && item?.options?.some((o) => o.value === v) ? null : 'compare with one of its option values.';
    case 'integer':
    case 'decimal':
    case 'number':
      return typeof v === 'number' ? null : 'compare with a number.';
    case 'date':
      return isCalendarDate(v) ? null : 'compare with a date written YYYY-MM-DD.';
    default:
      return typeof v === 'string' ? null : 'compare with text.';
  }
}

/**
 * Reachability: a search for answers under which a condition is true. Its variables are the operands the
 * condition mentions, the items behind derived values, and (transitively) the items their enableWhen mention.
 * Each gets a finite set of candidate values that covers every distinct outcome of the comparisons made on it
 * (the constants compared with, values between and around them, each option or subset of the mentioned
 * options, "unanswered"). An assignment is consistent when every answered item's enableWhen holds (a disabled
 * item is unanswered) and a derived value is answered only when its items are. The predicates are the
 * engine's own (`compileCondition`), so the semantics cannot drift. If the search would exceed
 * `SEARCH_LIMIT` assignments the condition is assumed reachable: the check never rejects a reachable rule.
 * Age and BMI are treated as free numbers (not tied to the dates and measures behind them).
 */
const SEARCH_LIMIT = 200_000;
/** Assignments tried for a whole document: bounds the validator's time on hostile (e.g. AI-drafted) input. */
const DOCUMENT_BUDGET = 2_000_000;
const MAX_SUBSET_OPTIONS = 8;

type Var = { key: string; candidates: unknown[]; item?: number; needs?: number[] };

/** Dead items and dead rules of a schema-valid document (exported for the soundness property test). */
export function reachabilityProblems(doc: QuestionnaireDocument): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  const add = (param: string, message: string) => problems.push({ param, message });
  const index = new Map<string, number>();
  doc.items.forEach((item, i) => index.has(item.linkId) || index.set(item.linkId, i));
  checkReachability(doc, index, add);
  return problems;
}

function checkReachability(doc: QuestionnaireDocument, index: Map<string, number>, add: (p: string, m: string) => void) {
  const constants = collectConstants(doc, index);
  let budget = DOCUMENT_BUDGET;
  const enableOf = (i: number) => doc.items[i]!.enableWhen;
  const satisfiable = (cond: Condition): boolean => {
    const vars: Var[] = [];
    const slot = new Map<string, number>();
    const addItem = (i: number): number => {
      const key = `item:${i}`;
      const known = slot.get(key);
      if (known !== undefined) return known;
      const at = vars.length;
      slot.set(key, at);
      vars.push({ key, item: i, candidates: itemCandidates(doc.items[i]!, constants.get(key) ?? []) });
      const ew = enableOf(i);
      if (ew) mentionedOperands(ew, index).forEach(addOperand);
      return at;
    };
    const addOperand = (o: Operand & { key: string }): number => {
      if (o.kind === 'item') return addItem(o.index);
      const known = slot.get(o.key);
      if (known !== undefined) return known;
      const needs = referencedIndexes(o).map(addItem);
      const at = vars.length;
      slot.set(o.key, at);
      vars.push({ key: o.key, needs, candidates: [undefined, ...numberCandidates(constants.get(o.key) ?? [], o.kind === 'age', undefined, undefined)] });
      return at;
    };
    mentionedOperands(cond, index).forEach(addOperand);
    const reader = (q: string) => {
      const o = keyed(resolveOperand(q, index));
      const k = o ? slot.get(o.key) : undefined;
      const multi = o?.kind === 'item' && doc.items[o.index]!.type === 'multi_choice';
      return { get: k === undefined ? () => undefined : (st: { values: unknown[] }) => st.values[k], multi };
    };
    const pred = compileCondition(reader, cond);
    const enables = vars.map((v) => (v.item !== undefined && enableOf(v.item) ? compileCondition(reader, enableOf(v.item)!) : null));
    let total = 1;
    for (const v of vars) total *= v.candidates.length;
    if (total > SEARCH_LIMIT || total > budget) return true;
    budget -= total;
    const state = { values: vars.map(() => undefined as unknown), asOf: -1 };
    const pos = vars.map(() => 0);
    for (let n = 0; n < total; n++) {
      for (let k = 0; k < vars.length; k++) state.values[k] = vars[k]!.candidates[pos[k]!];
      if (consistent(vars, enables, state) && pred(state)) return true;
      for (let k = 0; k < vars.length; k++) {
        if (++pos[k]! < vars[k]!.candidates.length) break;
        pos[k] = 0;
      }
    }
    return false;
  };
  doc.items.forEach((item, i) => {
    if (item.enableWhen && !satisfiable(item.enableWhen)) add(`items.${i}.enableWhen`, `Item "${item.linkId}" can never be enabled: no answers make its enableWhen true.`);
  });
  doc.rules.forEach((rule, r) => {
    if (!satisfiable(rule.when)) add(`rules.${r}.when`, `Rule "${rule.id}" can never match: no answers the questionnaire can collect make its condition true.`);
  });
}

function consistent(vars: Var[], enables: (((s: { values: unknown[]; asOf: number }) => boolean) | null)[], state: { values: unknown[]; asOf: number }): boolean {
  for (let k = 0; k < vars.length; k++) {
    if (state.values[k] === undefined) continue;
    const e = enables[k];
    if (e && !e(state)) return false;
    const needs = vars[k]!.needs;
    if (needs && needs.some((j) => state.values[j] === undefined)) return false;
  }
  return true;
}

const keyed = (o: Operand): (Operand & { key: string }) | null =>
  o.kind === 'item' ? { ...o, key: `item:${o.index}` } : o.kind === 'age' ? { ...o, key: `age:${o.index}` } : o.kind === 'bmi' ? { ...o, key: `bmi:${o.height}:${o.weight}` } : null;

function mentionedOperands(c: Condition, index: Map<string, number>): (Operand & { key: string })[] {
  const out: (Operand & { key: string })[] = [];
  walk(c, '', (cmp) => {
    const o = keyed(resolveOperand(cmp.q, index));
    if (o) out.push(o);
  });
  return out;
}

/** Every constant each operand is compared with, anywhere in the document. */
function collectConstants(doc: QuestionnaireDocument, index: Map<string, number>): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  const visit = (c: Condition) =>
    walk(c, '', (cmp) => {
      const o = keyed(resolveOperand(cmp.q, index));
      if (!o || cmp.value === undefined) return;
      const list = out.get(o.key) ?? [];
      list.push(...(Array.isArray(cmp.value) ? cmp.value : [cmp.value]));
      out.set(o.key, list);
    });
  doc.items.forEach((i) => i.enableWhen && visit(i.enableWhen));
  doc.rules.forEach((r) => visit(r.when));
  return out;
}

function itemCandidates(item: QuestionnaireItem, consts: unknown[]): unknown[] {
  const out: unknown[] = [undefined];
  switch (item.type) {
    case 'boolean':
      return [undefined, true, false];
    case 'choice':
      return [undefined, ...(item.options ?? []).map((o) => o.value)];
    case 'multi_choice': {
      const values = (item.options ?? []).map((o) => o.value);
      const mentioned = values.filter((v) => consts.includes(v));
      const other = values.find((v) => !mentioned.includes(v));
      if (mentioned.length > MAX_SUBSET_OPTIONS) return [undefined, ...values.map((v) => [v]), values];
      // Only which mentioned options are chosen matters; an unmentioned one stands for "something else".
      for (let mask = 0; mask < 1 << mentioned.length; mask++) {
        const chosen = mentioned.filter((_, b) => mask & (1 << b));
        if (chosen.length) out.push(chosen);
        if (other !== undefined) out.push([...chosen, other]);
      }
      return out;
    }
    case 'integer':
    case 'decimal':
      return [undefined, ...numberCandidates(consts, item.type === 'integer', item.min, item.max)];
    case 'date': {
      const dates = new Set<string>(['1900-01-01', '2999-12-31']);
      for (const c of consts) if (isCalendarDate(c)) [-1, 0, 1].forEach((d) => dates.add(shiftDay(c, d)));
      return [undefined, ...dates];
    }
    default: {
      // Each constant, one just above it (c + NUL sorts after c and before anything else greater), the extremes.
      const strings = new Set<string>(['\u0000', '\uffff\uffff']);
      for (const c of consts) if (typeof c === 'string' && c.trim() !== '') [c, `${c}\u0000`].forEach((x) => strings.add(x));
      return [undefined, ...strings];
    }
  }
}

/** Numbers at, between and around the constants, kept to the item's range and kind. */
function numberCandidates(consts: unknown[], integer: boolean, min: number | undefined, max: number | undefined): number[] {
  const cs = [...new Set(consts.filter((c): c is number => typeof c === 'number'))].sort((a, b) => a - b);
  const raw = new Set<number>([min ?? 0, max ?? 0]);
  if (min !== undefined) raw.add(Math.ceil(min));
  if (max !== undefined) raw.add(Math.floor(max));
  cs.forEach((c, k) => {
    [c, c - 1, c + 1, Math.floor(c), Math.ceil(c), c - 0.5, c + 0.5].forEach((x) => raw.add(x));
    const next = cs[k + 1];
    if (next !== undefined) [(c + next) / 2, Math.floor((c + next) / 2), Math.ceil((c + next) / 2)].forEach((x) => raw.add(x));
  });
  return [...raw].filter((x) => (!integer || Number.isInteger(x)) && (min === undefined || x >= min) && (max === undefined || x <= max));
}

function shiftDay(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
