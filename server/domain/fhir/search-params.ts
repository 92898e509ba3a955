import { errors } from '@/server/lib/errors';
import { DEFAULT_COUNT, MAX_COUNT, type Page } from './bundle';
import { fromFhirId } from './shared/ids';

/**
 * The search parameters each search understands (DESIGN decision 42), parsed from the query string with FHIR's
 * rules: a repeated parameter is AND, a comma inside one value is OR, an empty value is ignored. A parameter this
 * server does not know is a 400 naming it rather than ignored: a filter silently dropped would hand the client
 * other patients' records than it asked for.
 */
const SEARCH_PARAMETERS = {
  Patient: ['_id', 'email', 'family', 'family:exact', 'family:contains', 'birthdate', 'identifier'],
  MedicationRequest: ['patient'],
  QuestionnaireResponse: ['patient'],
  everything: [],
} as const;

/** Understood by every search and read: the result parameters and the format. */
const GENERAL = new Set(['_count', '_offset', '_format', '_pretty']);

export type SearchName = keyof typeof SEARCH_PARAMETERS;
/** Each parameter: its values (one per occurrence), each a list of alternatives (the comma's OR). */
export type Criteria = Map<string, string[][]>;

const bad = (message: string, param: string) => errors.validation(message, param, 'invalid_search_parameter');

/** Text a statement can carry: no NUL, no lone surrogate (PostgreSQL refuses both, which would be a 5xx). */
function storable(value: string, param: string): string {
  if (value.includes('\u0000') || !(value as string & { isWellFormed(): boolean }).isWellFormed()) throw bad(`The value of ${param} holds a character that is not text.`, param);
  if (value.length > 256) throw bad(`The value of ${param} is longer than 256 characters.`, param);
  return value;
}

function pageOf(params: URLSearchParams): Page {
  const number = (name: string, fallback: number) => {
    const values = params.getAll(name);
    if (values.length === 0 || values[0] === '') return fallback;
    if (values.length > 1 || !/^\d{1,6}$/.test(values[0]!)) throw bad(`${name} must be a whole number, given once.`, name);
    return Number(values[0]);
  };
  // Above the largest page it is clamped, as FHIR lets a server do; the links say the count used.
  return { count: Math.min(number('_count', DEFAULT_COUNT), MAX_COUNT), offset: number('_offset', 0) };
}

/** The criteria and the page of a search, or a 400 naming the first parameter that is not understood. */
export function parseSearch(name: SearchName, params: URLSearchParams): { criteria: Criteria; page: Page } {
  const known = new Set<string>(SEARCH_PARAMETERS[name]);
  const criteria: Criteria = new Map();
  for (const [param, value] of params) {
    storable(param, 'parameter name');
    if (GENERAL.has(param)) continue;
    if (!known.has(param)) {
      const allowed = [...known].join(', ');
      throw bad(`The search parameter '${param.slice(0, 40)}' is not supported here${allowed ? `; supported: ${allowed}` : ''}.`, param.slice(0, 40));
    }
    if (value === '') continue;
    const alternatives = storable(value, param)
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    if (alternatives.length) criteria.set(param, [...(criteria.get(param) ?? []), alternatives]);
  }
  return { criteria, page: pageOf(params) };
}

/**
 * A patient reference as a search value (`Patient/pat-…`, `pat-…`, or an absolute URL ending so) to our patient
 * id; null when it names no patient this server could hold (the search then matches nothing).
 */
export function patientReference(value: string): string | null {
  const m = /^(?:.*\/)?(?:Patient\/)?([A-Za-z0-9.-]{1,64})$/.exec(value);
  return m ? fromFhirId(m[1]!, 'pat') : null;
}

/** A `date` search value: its prefix and the first and last day it covers (YYYY, YYYY-MM or YYYY-MM-DD). */
export function dateRange(value: string, param: string): { prefix: 'eq' | 'ne' | 'lt' | 'gt' | 'le' | 'ge'; from: string; to: string } {
  const m = /^(eq|ne|lt|gt|le|ge)?(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/.exec(value);
  const month = m?.[3] ? Number(m[3]) : null;
  const day = m?.[4] ? Number(m[4]) : null;
  const valid = m && (month === null || (month >= 1 && month <= 12)) && (day === null || (day >= 1 && day <= new Date(Date.UTC(Number(m[2]), month!, 0)).getUTCDate()));
  if (!m || !valid) throw bad(`${param} must be a date (YYYY, YYYY-MM or YYYY-MM-DD), optionally after a prefix: eq, ne, lt, gt, le or ge.`, param);
  const prefix = (m[1] ?? 'eq') as 'eq';
  const y = m[2]!;
  if (day !== null) return { prefix, from: `${y}-${m[3]}-${m[4]}`, to: `${y}-${m[3]}-${m[4]}` };
  // Dates compare as text: the 31st closes any month, December 31st any year.
  if (month !== null) return { prefix, from: `${y}-${m[3]}-01`, to: `${y}-${m[3]}-31` };
  return { prefix, from: `${y}-01-01`, to: `${y}-12-31` };
}

/** A token search value: `system|code`, `|code` (no system) or `code` (any system). */
export function token(value: string): { system: string | null | undefined; code: string } {
  const bar = value.indexOf('|');
  if (bar < 0) return { system: undefined, code: value };
  return { system: bar === 0 ? null : value.slice(0, bar), code: value.slice(bar + 1) };
}
