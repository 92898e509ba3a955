import { enabledLinkIds } from '@/server/domain/intake/shared/engine';
import type { FieldErrors, PatientItem } from './types';

/** What the form holds per item: text as typed, a chosen option's value, or the values ticked. */
export type RawAnswers = Record<string, string | string[]>;

const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?(\d+([.,]\d*)?|[.,]\d+)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const isEmpty = (v: string | string[] | undefined) => v === undefined || (Array.isArray(v) ? v.length === 0 : v.trim() === '');

/** One item's typed answer, or undefined when it is empty or does not parse (the check below says why). */
function typed(item: PatientItem, raw: string | string[] | undefined): unknown {
  if (isEmpty(raw)) return undefined;
  if (item.type === 'multi_choice') return Array.isArray(raw) ? raw : [raw];
  const text = (Array.isArray(raw) ? raw[0] : raw)!.trim();
  switch (item.type) {
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'integer':
      return INTEGER.test(text) ? Number(text) : undefined;
    case 'decimal':
      return DECIMAL.test(text) ? Number(text.replace(',', '.')) : undefined;
    default:
      return text;
  }
}

/** Typed answers of every item with one (disabled items included: `visibleAnswers` drops them). */
export function toAnswers(items: readonly PatientItem[], raw: RawAnswers): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const item of items) {
    const value = typed(item, raw[item.linkId]);
    if (value !== undefined) out[item.linkId] = value;
  }
  return out;
}

/**
 * The form's values for answers it sent before (the inverse of `toAnswers`: booleans as the radios' 'true' and
 * 'false', numbers as text), so a page shown again holds what the patient answered there.
 */
export function rawOf(answers: Readonly<Record<string, unknown>>): RawAnswers {
  const raw: RawAnswers = {};
  for (const [linkId, value] of Object.entries(answers)) {
    if (Array.isArray(value)) raw[linkId] = value.map(String);
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') raw[linkId] = String(value);
  }
  return raw;
}

/**
 * The items shown and the answers sent: the engine's own walk (server/domain/intake/shared/engine.ts), so a
 * question appears as soon as an earlier answer enables it, exactly as the server will count it, and an answer
 * to a question since hidden is not sent.
 */
export function visibleAnswers(items: PatientItem[], raw: RawAnswers, at = new Date()) {
  const all = toAnswers(items, raw);
  const enabled = new Set(enabledLinkIds({ items, rules: [] }, all, { asOf: at.toISOString().slice(0, 10) }));
  const answers: Record<string, unknown> = {};
  for (const [linkId, value] of Object.entries(all)) if (enabled.has(linkId)) answers[linkId] = value;
  return { enabled, answers };
}

const range = (item: PatientItem) =>
  item.min !== undefined && item.max !== undefined ? ` from ${item.min} to ${item.max}` : item.min !== undefined ? ` of at least ${item.min}` : item.max !== undefined ? ` of at most ${item.max}` : '';

/** The patient's mistakes among the shown items, in words for them; empty when the form can be sent. */
export function checkForm(items: readonly PatientItem[], raw: RawAnswers, enabled: Set<string>): FieldErrors {
  const errors: FieldErrors = {};
  for (const item of items) {
    if (!enabled.has(item.linkId)) continue;
    const value = raw[item.linkId];
    if (isEmpty(value)) {
      if (item.required) errors[item.linkId] = item.type === 'multi_choice' ? 'Choose at least one option.' : 'Answer this question.';
      continue;
    }
    const text = Array.isArray(value) ? '' : value.trim();
    if (item.type === 'integer' || item.type === 'decimal') {
      const n = typed(item, value);
      if (typeof n !== 'number') errors[item.linkId] = item.type === 'integer' ? 'Enter a whole number.' : 'Enter a number.';
      else if ((item.min !== undefined && n < item.min) || (item.max !== undefined && n > item.max)) errors[item.linkId] = `Enter a number${range(item)}.`;
    } else if (item.type === 'date' && !DATE.test(text)) {
      errors[item.linkId] = 'Enter a date.';
    } else if (Array.isArray(value) && value.length > 1) {
      // The page unticks the others (question-field.tsx); this only catches answers given before it did.
      const alone = item.options?.find((o) => o.exclusive && value.includes(o.value));
      if (alone) errors[item.linkId] = `Choose “${alone.label}” on its own, or the other options without it.`;
    }
  }
  return errors;
}
