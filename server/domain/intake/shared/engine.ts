import { answerMisfit, isCalendarDate, isEmptyAnswer } from './answers';
import { LINK_ID, type EngineDocument, type EngineItem } from './shapes';
import { compileCondition, resolveOperand, type Getter, type Operand, type OperandReader, type Pred, type State } from './conditions';
import { ageOn, bmiOf, dayNumber } from './derived';

// Moved out of this file by responsibility; re-exported so importers keep one entry point.
export * from './conditions';
export { ageOn, bmiOf } from './derived';

/**
 * The eligibility engine (DESIGN decision 19): pure, total, deterministic. No I/O, no clock (`asOf` is an
 * input), never throws on any answers object. Semantics (docs/decisions/intake.md, "What counts as an answer" and the engine's decisions after it):
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
const UNANSWERED: Getter = () => undefined;

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
