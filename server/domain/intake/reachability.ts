import { isCalendarDate } from './answers';
import { referencedIndexes, walk } from './condition-walk';
import { compileCondition, resolveOperand, type Operand } from './shared/engine';
import type { Condition, QuestionnaireDocument, QuestionnaireItem } from './questionnaire-schema';
import type { DocumentProblem } from './validate';

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
      // An exclusive option ("None of these", decision 46) is only ever chosen alone: a list combining it is no
      // answer (the engine counts it as unanswered), so it is no candidate, and "something else" beside a chosen
      // option is a non-exclusive one when there is one.
      const exclusive = new Set((item.options ?? []).filter((o) => o.exclusive === true).map((o) => o.value));
      const answerable = (list: string[]) => list.length < 2 || !list.some((v) => exclusive.has(v));
      const mentioned = values.filter((v) => consts.includes(v));
      const other = values.find((v) => !mentioned.includes(v) && !exclusive.has(v)) ?? values.find((v) => !mentioned.includes(v));
      if (mentioned.length > MAX_SUBSET_OPTIONS) {
        const together = values.filter((v) => !exclusive.has(v));
        return [undefined, ...values.map((v) => [v]), ...(together.length > 1 ? [together] : [])];
      }
      // Only which mentioned options are chosen matters; an unmentioned one stands for "something else".
      for (let mask = 0; mask < 1 << mentioned.length; mask++) {
        const chosen = mentioned.filter((_, b) => mask & (1 << b));
        if (chosen.length && answerable(chosen)) out.push(chosen);
        if (other !== undefined && answerable([...chosen, other])) out.push([...chosen, other]);
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
