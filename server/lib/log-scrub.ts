/**
 * Pattern-level scrubbing of free text bound for the log. Key redaction (logger.ts) cannot see into a string,
 * and strings are where PHI slipped through: a driver's message lists every parameter of the statement, and
 * PostgreSQL's details quote the values of the failing row or key. These rules cut such tails and mask the
 * shapes of PHI and credentials a message may quote.
 */
const RULES: [RegExp, string][] = [
  // drizzle's "Failed query: … params: v1,v2,…": the values come last.
  [/\bparams:[\s\S]*$/i, 'params: [redacted]'],
  // PostgreSQL details: "Failing row contains (…)", "Key (email)=(…) already exists".
  [/(Failing row contains )\([\s\S]*\)/gi, '$1([redacted])'],
  [/(\)=)\([^)]*\)/g, '$1([redacted])'],
  // Messages such as: invalid input syntax for type date: "…".
  [/(for (?:type|encoding) [\w ."]+: )("[^"]*"|\S+)/gi, '$1[redacted]'],
  // Links carry their secret in the query (magic-link and invitation tokens).
  [/(\bhttps?:\/\/[^\s?#"']+)[?#][^\s"']*/gi, '$1?[redacted]'],
  [/[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[a-z]{2,}/gi, '[email]'],
  // Calendar dates (dates of birth); full timestamps are kept, they date events, not people.
  [/\b\d{4}-\d{2}-\d{2}\b(?!T)/g, '[date]'],
  [/\+?\b1?[\s.-]?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]?\d{4}\b/g, '[phone]'],
];

export function scrubText(text: string): string {
  return RULES.reduce((s, [pattern, replacement]) => s.replace(pattern, replacement), text);
}

const isPlain = (v: object) => [Object.prototype, null].includes(Object.getPrototypeOf(v));

/** Every string of plain objects and arrays in a log record scrubbed, and every error described by `describe`. */
export function scrubValues(value: unknown, describe: (e: Error) => unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value instanceof Error) return describe(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubValues(v, describe, depth + 1));
  if (!isPlain(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValues(v, describe, depth + 1)]));
}
