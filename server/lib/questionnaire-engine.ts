import { answerMisfit, isCalendarDate, isEmptyAnswer } from './questionnaire-answers';
import { DERIVED, LINK_ID, type Condition, type EngineDocument, type EngineItem } from './questionnaire-shapes';

/**
 * The eligibility engine (DESIGN decision 19): pure, total, deterministic. No I/O, no clock (`asOf` is an
 * input), never throws on any answers object. Semantics (docs/decisions.md, "Issue 22: the eligibility engine"):
 *
 * - Items are visited in document order. An item is enabled when it has no `enableWhen` or its condition is
 *   true over the items before it. A disabled item's answer is ignored everywhere (rules, later enableWhen).
 * - An answer counts only when it fits the item (`answerMisfit` is null), is not null and is not empty; anything
 *   else is "unanswered". Every comparison on an unanswered value is false, except `exists` with
 *   `value: false` (true); `not` inverts as usual. A disqualifier on a skipped required item is therefore not
 *   matched, but the skip makes the verdict `incomplete`, never `eligible`.
 * - Verdict: a matching disqualify rule → `disqualified`; else a required enabled unanswered item →
 *   `incomplete`; else `eligible`. `missing`, `hits`, `flags` are in document order.
 */

export type Verdict = 'eligible' | 'disqualified' | 'incomplete';

export interface Evaluation {
  verdict: Verdict;
  /** linkIds of required, enabled items without an answer. */
  missing: string[];
  /** ids of disqualifying rules that matched. */
  hits: string[];
  /** ids of review_flag rules that matched. */
  flags: string[];
}

export interface EvaluateOptions {
  /** The day `age()` is computed on (YYYY-MM-DD, UTC): an input, so the function stays pure. */
  asOf: string;
}

export interface AnswerProblem {
  /** `answers.<linkId>` */
  param: string;
  /** Names the item and what was expected; never echoes the value. */
  message: string;
}

/** Per-evaluation state: the counted answer of each item (undefined = unanswered or disabled) and the day. */
export interface State {
  values: unknown[];
  /** asOf as y*10000 + m*100 + d, or -1 when asOf is not a calendar date (every age is then unanswered). */
  asOf: number;
}

export type Pred = (s: State) => boolean;
export type Getter = (s: State) => unknown;
/** How a compiled condition reads `q`: a getter over the state, and whether it is a multi_choice list. */
export type OperandReader = (q: string) => { get: Getter; multi: boolean };

interface CompiledRule {
  id: string;
  disqualify: boolean;
  when: Pred;
}

interface Compiled {
  items: EngineItem[];
  index: Map<string, number>;
  options: (ReadonlySet<string> | null)[];
  enable: (Pred | null)[];
  rules: CompiledRule[];
}

// Documents are immutable once validated; compile each once. Weak, so documents are not kept alive.
const cache = new WeakMap<EngineDocument, Compiled>();

const hasOwn = Object.prototype.hasOwnProperty;
const ALWAYS_FALSE: Pred = () => false;
const UNANSWERED: Getter = () => undefined;

/** `inch → m`, `lb → kg` (exact definitions). */
const M_PER_IN = 0.0254;
const KG_PER_LB = 0.45359237;

function compile(doc: EngineDocument): Compiled {
  const cached = cache.get(doc);
  if (cached) return cached;
  const items = Array.isArray(doc.items) ? doc.items : [];
  const index = new Map<string, number>();
  items.forEach((item, i) => {
    if (!index.has(item.linkId)) index.set(item.linkId, i);
  });
  const options = items.map((item) => (item.options ? new Set(item.options.map((o) => o.value)) : null));
  const ctx = { items, index };
  const reader: OperandReader = (q) => getterOf(ctx, resolveOperand(q, index));
  const compiled: Compiled = {
    items,
    index,
    options,
    enable: items.map((item) => (item.enableWhen ? compileCondition(reader, item.enableWhen) : null)),
    rules: (Array.isArray(doc.rules) ? doc.rules : []).map((r) => ({ id: r.id, disqualify: r.effect === 'disqualify', when: compileCondition(reader, r.when) })),
  };
  cache.set(doc, compiled);
  return compiled;
}

interface CompileCtx {
  items: EngineItem[];
  index: Map<string, number>;
}

/**
 * Compiles a condition to a predicate. The comparison semantics live here only; the validator's reachability
 * search compiles with its own reader so the two can never disagree.
 */
export function compileCondition(reader: OperandReader, c: Condition): Pred {
  if (c === null || typeof c !== 'object') return ALWAYS_FALSE;
  if ('all' in c) {
    const parts = Array.isArray(c.all) ? c.all.map((x) => compileCondition(reader, x)) : [];
    const n = parts.length;
    return (s) => {
      for (let i = 0; i < n; i++) if (!parts[i]!(s)) return false;
      return true;
    };
  }
  if ('any' in c) {
    const parts = Array.isArray(c.any) ? c.any.map((x) => compileCondition(reader, x)) : [];
    const n = parts.length;
    return (s) => {
      for (let i = 0; i < n; i++) if (parts[i]!(s)) return true;
      return false;
    };
  }
  if ('not' in c) {
    const inner = compileCondition(reader, c.not);
    return (s) => !inner(s);
  }
  return compileComparison(reader, c);
}

/** What `q` names: an item, a derived value, or nothing (always unanswered). */
export type Operand =
  | { kind: 'item'; index: number }
  | { kind: 'age'; index: number }
  | { kind: 'bmi'; height: number; weight: number }
  | { kind: 'unknown' };

/** Resolves `q` against a document's linkId index (shared with the validator). -1 = no such item. */
export function resolveOperand(q: string, index: ReadonlyMap<string, number>): Operand {
  if (typeof q !== 'string') return { kind: 'unknown' };
  if (LINK_ID.test(q)) {
    const i = index.get(q);
    return i === undefined ? { kind: 'unknown' } : { kind: 'item', index: i };
  }
  const m = DERIVED.exec(q);
  if (!m) return { kind: 'unknown' };
  if (m[1] === 'age') return { kind: 'age', index: index.get(m[2]!) ?? -1 };
  return { kind: 'bmi', height: index.get(m[4]!) ?? -1, weight: index.get(m[5]!) ?? -1 };
}

/** Parses a validated YYYY-MM-DD into y*10000 + m*100 + d without allocating. */
function dayNumber(date: string): number {
  let n = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    n = n * 10 + (date.charCodeAt(i) - 48);
  }
  return n;
}

/**
 * Whole years from `born` to `asOf`. A 29 February birthday falls on 1 March in common years (the person is
 * not a year older on 28 February). A birth date after `asOf` gives a negative age, so `age(...) < 18` still
 * matches a mistyped future date instead of letting it through.
 */
export function ageOn(born: number, asOf: number): number {
  const years = Math.floor(asOf / 10000) - Math.floor(born / 10000);
  return asOf % 10000 < born % 10000 ? years - 1 : years;
}

/** BMI (kg/m²) rounded to one decimal, as clinics chart it; undefined without two positive measures. */
export function bmiOf(height: number, heightUnit: string | undefined, weight: number, weightUnit: string | undefined): number | undefined {
  if (!(height > 0) || !(weight > 0)) return undefined;
  const m = heightUnit === 'cm' ? height / 100 : height * M_PER_IN;
  const kg = weightUnit === 'kg' ? weight : weight * KG_PER_LB;
  const bmi = kg / (m * m);
  return Number.isFinite(bmi) ? Math.round(bmi * 10) / 10 : undefined;
}

function getterOf(ctx: CompileCtx, operand: Operand): { get: Getter; multi: boolean } {
  switch (operand.kind) {
    case 'item': {
      const i = operand.index;
      return { get: (s) => s.values[i], multi: ctx.items[i]!.type === 'multi_choice' };
    }
    case 'age': {
      const i = operand.index;
      if (i < 0 || ctx.items[i]!.type !== 'date') return { get: UNANSWERED, multi: false };
      return {
        get: (s) => {
          const v = s.values[i];
          return typeof v === 'string' && s.asOf >= 0 ? ageOn(dayNumber(v), s.asOf) : undefined;
        },
        multi: false,
      };
    }
    case 'bmi': {
      const { height: h, weight: w } = operand;
      if (h < 0 || w < 0) return { get: UNANSWERED, multi: false };
      const hu = ctx.items[h]!.unit;
      const wu = ctx.items[w]!.unit;
      return {
        get: (s) => {
          const hv = s.values[h];
          const wv = s.values[w];
          return typeof hv === 'number' && typeof wv === 'number' ? bmiOf(hv, hu, wv, wu) : undefined;
        },
        multi: false,
      };
    }
    default:
      return { get: UNANSWERED, multi: false };
  }
}

const isScalar = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

function compileComparison(reader: OperandReader, c: { q: string; op: string; value?: unknown }): Pred {
  const { get, multi } = reader(c.q);
  const value = c.value;
  switch (c.op) {
    case 'exists': {
      const want = value !== false;
      return (s) => (get(s) !== undefined) === want;
    }
    case 'eq':
    case 'neq': {
      if (!isScalar(value)) return ALWAYS_FALSE;
      const eq = c.op === 'eq';
      if (multi)
        return (s) => {
          const a = get(s);
          return Array.isArray(a) && a.includes(value) === eq;
        };
      return (s) => {
        const a = get(s);
        return a !== undefined && (a === value) === eq;
      };
    }
    case 'in':
    case 'nin': {
      if (!Array.isArray(value)) return ALWAYS_FALSE;
      const set = new Set<unknown>(value);
      const isIn = c.op === 'in';
      if (multi)
        return (s) => {
          const a = get(s);
          if (!Array.isArray(a)) return false;
          for (let i = 0; i < a.length; i++) if (set.has(a[i])) return isIn;
          return !isIn;
        };
      return (s) => {
        const a = get(s);
        return a !== undefined && set.has(a) === isIn;
      };
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      // Numbers compare numerically, dates (YYYY-MM-DD) as strings; any other pairing is false.
      if (typeof value !== 'number' && typeof value !== 'string') return ALWAYS_FALSE;
      const t = typeof value;
      const op = c.op;
      return (s) => {
        const a = get(s);
        if (typeof a !== t) return false;
        const x = a as number | string;
        return op === 'gt' ? x > value : op === 'gte' ? x >= value : op === 'lt' ? x < value : x <= value;
      };
    }
    default:
      return ALWAYS_FALSE;
  }
}

/** Reads one answer without trusting the object (proxies, throwing getters, prototype keys). */
function read(answers: unknown, key: string): unknown {
  try {
    return hasOwn.call(answers, key) ? (answers as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

const isAnswerObject = (a: unknown): a is object => a !== null && typeof a === 'object' && !Array.isArray(a);

/**
 * Visits the items in order, filling the state with counted answers of enabled items; collects missing
 * required linkIds and/or enabled linkIds when asked.
 */
function walkItems(c: Compiled, answers: unknown, options: EvaluateOptions, missing: string[] | null, enabled: string[] | null): State {
  const n = c.items.length;
  const asOf = isCalendarDate(options?.asOf) ? dayNumber(options.asOf) : -1;
  const state: State = { values: new Array<unknown>(n).fill(undefined), asOf };
  const usable = isAnswerObject(answers);
  for (let i = 0; i < n; i++) {
    const item = c.items[i]!;
    const enable = c.enable[i];
    // Later items are still undefined here, so a (forbidden) forward reference reads as unanswered.
    if (enable !== null && enable !== undefined && !enable(state)) continue;
    if (enabled !== null) enabled.push(item.linkId);
    const raw = usable ? read(answers, item.linkId) : undefined;
    if (raw !== undefined && raw !== null && answerMisfit(item, c.options[i]!, raw) === null && !isEmptyAnswer(raw)) state.values[i] = raw;
    else if (item.required && missing !== null) missing.push(item.linkId);
  }
  return state;
}

/** Pure, total, deterministic (DESIGN decision 19). */
export function evaluate(doc: EngineDocument, answers: Record<string, unknown>, options: EvaluateOptions): Evaluation {
  const c = compile(doc);
  const missing: string[] = [];
  const state = walkItems(c, answers, options, missing, null);
  const hits: string[] = [];
  const flags: string[] = [];
  for (const rule of c.rules) {
    if (!rule.when(state)) continue;
    (rule.disqualify ? hits : flags).push(rule.id);
  }
  return { verdict: hits.length ? 'disqualified' : missing.length ? 'incomplete' : 'eligible', missing, hits, flags };
}

/** At most this many problems are listed: enough to fix a form, bounded for hostile input. */
export const MAX_ANSWER_PROBLEMS = 50;

/**
 * Type-checks answers against the items (unknown linkIds, wrong types, options, min/max). Empty when fine.
 * null means "no answer" and is accepted; answers to items that end up disabled are checked like any other
 * (and then ignored by `evaluate`). Items first in document order, then unknown keys.
 */
export function checkAnswers(doc: EngineDocument, answers: Record<string, unknown>): AnswerProblem[] {
  if (!isAnswerObject(answers)) return [{ param: 'answers', message: 'answers must be an object keyed by item linkId.' }];
  const c = compile(doc);
  const problems: AnswerProblem[] = [];
  for (let i = 0; i < c.items.length && problems.length < MAX_ANSWER_PROBLEMS; i++) {
    const item = c.items[i]!;
    const raw = read(answers, item.linkId);
    if (raw === undefined || raw === null) continue;
    const misfit = answerMisfit(item, c.options[i]!, raw);
    if (misfit !== null) problems.push({ param: `answers.${item.linkId}`, message: `The answer to item "${item.linkId}" must be ${misfit}.` });
  }
  let keys: string[];
  try {
    keys = Object.keys(answers);
  } catch {
    keys = [];
  }
  for (const key of keys) {
    if (problems.length >= MAX_ANSWER_PROBLEMS) break;
    if (c.index.has(key)) continue;
    // The key is named by `param` only when it is linkId-shaped, and never repeated in the message: a key is
    // still something the client sent.
    problems.push(
      LINK_ID.test(key)
        ? { param: `answers.${key}`, message: 'This questionnaire has no item with this linkId.' }
        : { param: 'answers', message: 'An answer is keyed by something that is not a linkId of this questionnaire.' },
    );
  }
  return problems;
}

/**
 * The linkIds enabled for these answers, in document order (what a form shows). Same walk as `evaluate`; for
 * renderers and tests.
 */
export function enabledLinkIds(doc: EngineDocument, answers: Record<string, unknown>, options: EvaluateOptions): string[] {
  const c = compile(doc);
  const enabled: string[] = [];
  walkItems(c, answers, options, null, enabled);
  return enabled;
}
