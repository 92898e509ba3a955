import * as z from '@/server/lib/zod';

/**
 * Validation messages for people ("Name cannot be empty."), built from a zod issue and the field's path, so a
 * REST client reads the same sentence the console shows. The label comes from the path, never from the value
 * sent: a value may be PHI.
 */

/** The parts of a zod v4 issue the sentences use; finalized issues carry no input. */
export interface IssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
  expected?: string;
  values?: unknown[];
  origin?: string;
  format?: string;
  minimum?: number | bigint | string;
  maximum?: number | bigint | string;
  inclusive?: boolean;
  exact?: boolean;
  divisor?: number;
  prefix?: string;
  suffix?: string;
  includes?: string;
  options?: unknown[];
  params?: { code?: string };
}

const ACRONYMS: Record<string, string> = { id: 'ID', url: 'URL', npi: 'NPI', dea: 'DEA', sku: 'SKU', ip: 'IP', mfa: 'MFA', totp: 'TOTP', eta: 'ETA', json: 'JSON', csv: 'CSV', zip: 'ZIP' };

const words = (segment: string) =>
  segment
    .replace(/([a-z])([A-Z0-9])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());

// "items.0" names one item: "Item 1" reads better than "Items 0".
const singular = (word: string) =>
  /ies$/.test(word) ? word.slice(0, -3) + 'y' : /(ss|x|ch|sh)es$/.test(word) ? word.slice(0, -2) : /[^s]s$/.test(word) ? word.slice(0, -1) : word;

/**
 * The field as a person names it: camelCase and snake_case become words, an array index counts from 1 and
 * makes the list's name singular ("items.0.quantity" → "Item 1 quantity", "address.postalCode" → "Address
 * postal code"). The empty path is the body itself.
 */
export function fieldLabel(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'The request body';
  const out: string[] = [];
  for (const segment of path) {
    if (typeof segment === 'number' || /^\d+$/.test(String(segment))) {
      const last = out.length - 1;
      if (last >= 0) out[last] = singular(out[last]);
      out.push(String(Number(segment) + 1));
    } else {
      out.push(...words(String(segment)));
    }
  }
  const label = out.join(' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  boolean: 'a boolean',
  array: 'a list (JSON array)',
  object: 'an object',
  date: 'a date',
  null: 'null',
};

const FORMATS: Record<string, string> = {
  email: 'a valid e-mail address',
  url: 'a valid URL',
  uuid: 'a UUID',
  guid: 'a GUID',
  datetime: 'an ISO 8601 date-time such as 2026-01-31T12:00:00Z',
  date: 'a date as YYYY-MM-DD',
  time: 'a time as HH:MM[:SS]',
  duration: 'an ISO 8601 duration',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  e164: 'a phone number in E.164 form (+15551234567)',
  base64: 'base64-encoded',
  base64url: 'base64url-encoded',
  jwt: 'a JWT',
};

const plural = (n: number | bigint | string | undefined, unit: string) => `${String(n)} ${unit}${Number(n) === 1 ? '' : 's'}`;
const listed = (values: unknown[]) => values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');

function sizeRule(issue: IssueLike, bound: 'min' | 'max'): string {
  const n = bound === 'min' ? issue.minimum : issue.maximum;
  const [atLeast, moreThan] = bound === 'min' ? ['at least', 'more than'] : ['at most', 'fewer than'];
  const phrase = issue.exact ? 'exactly' : issue.inclusive === false ? moreThan : atLeast;
  switch (issue.origin) {
    case 'string':
      if (bound === 'min' && !issue.exact && Number(n) === 1 && issue.inclusive !== false) return 'cannot be empty';
      return `must be ${phrase} ${plural(n, 'character')}`;
    case 'array':
    case 'set':
      return `must have ${phrase} ${plural(n, 'item')}`;
    case 'map':
      return `must have ${phrase} ${plural(n, 'entry').replace('entrys', 'entries')}`;
    case 'date':
      return bound === 'min' ? `must be on or after ${String(n)}` : `must be on or before ${String(n)}`;
    default: {
      const comparison = issue.exact ? 'exactly' : issue.inclusive === false ? (bound === 'min' ? 'greater than' : 'less than') : atLeast;
      return `must be ${comparison} ${String(n)}`;
    }
  }
}

function formatRule(issue: IssueLike): string {
  switch (issue.format) {
    case 'starts_with':
      return `must start with "${issue.prefix}"`;
    case 'ends_with':
      return `must end with "${issue.suffix}"`;
    case 'includes':
      return `must include "${issue.includes}"`;
    case 'regex':
      return 'is not in the expected format';
    default:
      return `must be ${FORMATS[issue.format ?? ''] ?? `a valid ${issue.format ?? 'value'}`}`;
  }
}

/** What the value must be, as the end of a sentence that starts with the field's label. */
function rule(issue: IssueLike): string {
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${TYPE_NAMES[issue.expected ?? ''] ?? `a valid ${issue.expected ?? 'value'}`}`;
    case 'invalid_value':
      return issue.values?.length === 1 ? `must be ${listed(issue.values)}` : `must be one of: ${listed(issue.values ?? [])}`;
    case 'too_small':
      return sizeRule(issue, 'min');
    case 'too_big':
      return sizeRule(issue, 'max');
    case 'invalid_format':
      return formatRule(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'invalid_union':
      return issue.options?.length ? `must be one of: ${listed(issue.options)}` : 'does not match any accepted form';
    case 'invalid_key':
      return 'has a key that is not allowed';
    case 'invalid_element':
      return 'has a value that is not allowed';
    default:
      return 'is not valid';
  }
}

/** zod's own message tells the type it received; the rest of it is what the locale would always say. */
const withoutReceived = (message: string) => message.replace(/, received .*$/, '');

/**
 * True when the schema set this message itself (`.refine(fn, 'must be …')`, `z.enum(…, { error })`): a
 * schema author knows the rule better than a generic sentence does, so that message wins.
 */
export function isAuthoredMessage(issue: IssueLike): boolean {
  const localeError = z.config().localeError;
  if (!localeError) return false;
  const generic = localeError(issue as unknown as Parameters<typeof localeError>[0]);
  const text = typeof generic === 'string' ? generic : generic?.message;
  if (text === undefined) return false;
  return issue.code === 'invalid_type' ? withoutReceived(issue.message) !== withoutReceived(text) : issue.message !== text;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** True when the issue is a required field that was not sent at all. */
export const isMissing = (issue: IssueLike) => issue.code === 'invalid_type' && /received undefined/.test(issue.message);

export const requiredMessage = (path: readonly PropertyKey[]) => `${fieldLabel(path)} is required.`;

/**
 * One sentence naming the field and its rule. An authored message that starts in lower case continues the
 * field's label ("Date of birth" + "must be a real date …"); one that starts in upper case is whole already.
 */
export function issueMessage(issue: IssueLike): string {
  if (isMissing(issue)) return requiredMessage(issue.path);
  const label = fieldLabel(issue.path);
  if (isAuthoredMessage(issue)) return /^[a-z]/.test(issue.message) ? sentence(`${label} ${issue.message}`) : sentence(issue.message);
  return sentence(`${label} ${rule(issue)}`);
}
