/**
 * The closed condition tree of questionnaires (DESIGN decision 18), evaluated. Pure and total: no I/O, never
 * throws, same input → same output. It lives in server/lib so that the engine (server/domain/intake) and the
 * patient's browser (components/intake, which may not import domain code) run the very same rules: the
 * question a patient sees appear is the question the engine counts.
 *
 * The shapes are declared structurally here (server/lib imports only itself); the questionnaire schema's
 * `Condition` and item types are assignable to them.
 */

export type Scalar = string | number | boolean;
export type ConditionOp = 'eq' | 'neq' | 'in' | 'nin' | 'gt' | 'gte' | 'lt' | 'lte' | 'exists';

export interface ConditionComparison {
  q: string;
  op: ConditionOp;
  value?: Scalar | Scalar[];
}
export type ConditionNode = ConditionComparison | { all: ConditionNode[] } | { any: ConditionNode[] } | { not: ConditionNode };

/** What the evaluator needs of an item: its id, its unit (for `bmi()`) and its own condition. */
export interface ConditionItem {
  linkId: string;
  unit?: 'cm' | 'in' | 'kg' | 'lb';
  enableWhen?: ConditionNode;
}

export interface ConditionContext {
  /** Answers by linkId; only those of enabled items should be here (see `activeAnswers`). */
  answers: Record<string, unknown>;
  /** Units by linkId, for `bmi()`. */
  units: Record<string, string | undefined>;
  /** The day `age()` is computed on, YYYY-MM-DD (UTC): an input, so evaluation stays pure. */
  asOf: string;
}

const DERIVED = /^(age)\(\s*([A-Za-z][A-Za-z0-9_-]*)\s*\)$|^(bmi)\(\s*([A-Za-z][A-Za-z0-9_-]*)\s*,\s*([A-Za-z][A-Za-z0-9_-]*)\s*\)$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const own = (o: Record<string, unknown>, k: string) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/** A real calendar date as [y, m, d], or null. */
function parseDate(value: unknown): [number, number, number] | null {
  if (typeof value !== 'string') return null;
  const m = ISO_DATE.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return null;
  return [y, mo, d];
}

/** Whole years from a date of birth to `asOf`; undefined for a missing or impossible date, or one after `asOf`. */
export function ageOn(dateOfBirth: unknown, asOf: string): number | undefined {
  const born = parseDate(dateOfBirth);
  const today = parseDate(asOf);
  if (!born || !today) return undefined;
  let years = today[0] - born[0];
  if (today[1] < born[1] || (today[1] === born[1] && today[2] < born[2])) years -= 1;
  return years < 0 ? undefined : years;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** kg/m², to one decimal as clinicians read it; heights in cm or in, weights in kg or lb (cm and kg by default). */
export function bmiOf(height: unknown, heightUnit: string | undefined, weight: unknown, weightUnit: string | undefined): number | undefined {
  if (!finite(height) || !finite(weight) || height <= 0 || weight <= 0) return undefined;
  const metres = (heightUnit === 'in' ? height * 2.54 : height) / 100;
  const kg = weightUnit === 'lb' ? weight * 0.45359237 : weight;
  const bmi = kg / (metres * metres);
  return Number.isFinite(bmi) ? Math.round(bmi * 10) / 10 : undefined;
}

/** The value `q` names: an answer, or a derived `age(<date item>)` / `bmi(<height>, <weight>)`. */
export function resolveOperand(q: string, ctx: ConditionContext): unknown {
  const m = DERIVED.exec(q);
  if (!m) return own(ctx.answers, q);
  if (m[1]) return ageOn(own(ctx.answers, m[2]), ctx.asOf);
  return bmiOf(own(ctx.answers, m[4]), ctx.units[m[4]], own(ctx.answers, m[5]), ctx.units[m[5]]);
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);
const same = (a: unknown, b: unknown) => a === b;

/** Ordered comparison of two numbers, or of two ISO dates (as text, which orders them); else no order. */
function order(a: unknown, b: unknown): number | undefined {
  if (finite(a) && finite(b)) return a - b;
  if (parseDate(a) && parseDate(b)) return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
  return undefined;
}

/**
 * One comparison. A missing answer makes every comparison false except `exists` (which is then false too,
 * unless `value: false` asks for absence): an unanswered question neither enables nor disqualifies.
 * An answer that is a list (multi_choice) `eq`s a value it contains, and is `in` a list it shares a value with.
 */
function compare(c: ConditionComparison, ctx: ConditionContext): boolean {
  const actual = resolveOperand(c.q, ctx);
  if (c.op === 'exists') return c.value === false ? !present(actual) : present(actual);
  if (!present(actual)) return false;
  const values = Array.isArray(actual) ? actual : [actual];
  const list = Array.isArray(c.value) ? c.value : c.value === undefined ? [] : [c.value];
  switch (c.op) {
    case 'eq':
      return !Array.isArray(c.value) && values.some((v) => same(v, c.value));
    case 'neq':
      return !Array.isArray(c.value) && !values.some((v) => same(v, c.value));
    case 'in':
      return values.some((v) => list.some((w) => same(v, w)));
    case 'nin':
      return !values.some((v) => list.some((w) => same(v, w)));
    default: {
      if (Array.isArray(actual) || Array.isArray(c.value)) return false;
      const d = order(actual, c.value);
      if (d === undefined) return false;
      return c.op === 'gt' ? d > 0 : c.op === 'gte' ? d >= 0 : c.op === 'lt' ? d < 0 : d <= 0;
    }
  }
}

/** Evaluates a condition tree; anything not of the closed shape is false (total, never throws). */
export function evaluateCondition(node: ConditionNode, ctx: ConditionContext): boolean {
  if (!node || typeof node !== 'object') return false;
  if ('all' in node) return Array.isArray(node.all) && node.all.every((n) => evaluateCondition(n, ctx));
  if ('any' in node) return Array.isArray(node.any) && node.any.some((n) => evaluateCondition(n, ctx));
  if ('not' in node) return !evaluateCondition(node.not, ctx);
  if ('q' in node && typeof node.q === 'string') return compare(node, ctx);
  return false;
}

/**
 * The answers that count: those of enabled items, decided in document order (conditions reference earlier
 * items), so an answer left behind on a question that has since been disabled never counts anywhere.
 */
export function activeAnswers(items: readonly ConditionItem[], answers: Record<string, unknown>, asOf: string): { enabled: Set<string>; answers: Record<string, unknown> } {
  const units: Record<string, string | undefined> = {};
  for (const item of items) units[item.linkId] = item.unit;
  const counted: Record<string, unknown> = {};
  const enabled = new Set<string>();
  for (const item of items) {
    const on = !item.enableWhen || evaluateCondition(item.enableWhen, { answers: counted, units, asOf });
    if (!on) continue;
    enabled.add(item.linkId);
    const value = own(answers, item.linkId);
    if (value !== undefined) counted[item.linkId] = value;
  }
  return { enabled, answers: counted };
}

/** Today as YYYY-MM-DD in UTC. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
