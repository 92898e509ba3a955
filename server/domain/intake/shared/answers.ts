import type { EngineItem } from './shapes';

/**
 * What counts as an answer to an item (DESIGN decision 19). One definition shared by `evaluate` (anything that
 * does not fit is treated as unanswered) and `checkAnswers` (which names the misfit), so the two never disagree.
 */

export const STRING_MAX = 500;
export const TEXT_MAX = 5000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** A real calendar date written YYYY-MM-DD (no 2023-02-29, no 2024-13-01). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string' || value.length !== 10) return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (mo < 1 || mo > 12 || d < 1) return false;
  return d <= (mo === 2 && isLeapYear(y) ? 29 : DAYS[mo - 1]!);
}

const EXCLUSIVE = 'an option marked exclusive (such as "None of these") on its own, or other options without it';

/** Whether a list of two or more option values holds an `exclusive` option (DESIGN decision 46). */
function combinesExclusive(item: EngineItem, values: readonly string[]): boolean {
  for (const o of item.options ?? []) if (o.exclusive === true && values.includes(o.value)) return true;
  return false;
}

/**
 * Why a present, non-null answer does not fit its item, as a phrase naming what was expected, or null when
 * it fits. Never mentions the value itself. `options` is the item's set of option values (choice types). A
 * multi_choice list holding an `exclusive` option beside another does not fit (DESIGN decision 46): `checkAnswers`
 * refuses it naming the item, and `evaluate` counts it as unanswered.
 */
export function answerMisfit(item: EngineItem, options: ReadonlySet<string> | null, value: unknown): string | null {
  switch (item.type) {
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'choice':
      return typeof value === 'string' && options !== null && options.has(value) ? null : 'one of its option values';
    case 'multi_choice': {
      const expected = 'a list of its option values without repeats';
      if (!Array.isArray(value) || value.length > (options?.size ?? 0)) return expected;
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        if (typeof v !== 'string' || options === null || !options.has(v)) return expected;
        for (let j = 0; j < i; j++) if (value[j] === v) return expected;
      }
      return value.length > 1 && combinesExclusive(item, value as string[]) ? EXCLUSIVE : null;
    }
    case 'integer':
    case 'decimal': {
      const kind = item.type === 'integer' ? 'a whole number' : 'a number';
      if (typeof value !== 'number' || !Number.isFinite(value)) return kind;
      if (item.type === 'integer' && !Number.isSafeInteger(value)) return kind;
      if (item.min !== undefined && value < item.min) return `${kind} of at least ${item.min}${rangeTail(item)}`;
      if (item.max !== undefined && value > item.max) return `${kind} of at most ${item.max}${rangeTail(item)}`;
      return null;
    }
    case 'date':
      return isCalendarDate(value) ? null : 'a calendar date written YYYY-MM-DD';
    case 'string':
      return typeof value === 'string' && value.length <= STRING_MAX ? null : `text of at most ${STRING_MAX} characters`;
    case 'text':
      return typeof value === 'string' && value.length <= TEXT_MAX ? null : `text of at most ${TEXT_MAX} characters`;
    default:
      return 'a valid answer';
  }
}

const rangeTail = (item: EngineItem) => (item.unit ? ` ${item.unit}` : '');

/**
 * Whether a fitting answer actually answers the item: an empty or blank string, and an empty multi_choice
 * selection, do not (a form cannot tell "chose nothing" from "skipped"; lists offer a "none" option).
 */
export function isEmptyAnswer(value: unknown): boolean {
  if (typeof value === 'string') return value.trim().length === 0;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}
