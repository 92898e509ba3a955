import { DERIVED, LINK_ID, type Condition } from './shapes';

/** The condition language of questionnaires compiled to predicates over an evaluation's state: the one place its comparison semantics live. */

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

const ALWAYS_FALSE: Pred = () => false;

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
