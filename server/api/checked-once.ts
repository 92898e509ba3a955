import { isDeepStrictEqual } from 'node:util';
import type * as z from '@/server/lib/zod';
import { wrapParse } from './dependency-internals';

/**
 * Output checking for values the server builds once and then serves again and again (a published flow's
 * patient-safe definition, cached per version): the schema checks an object the first time it is returned
 * and trusts that same object after, instead of walking its every item on every response (≈ 1 ms of CPU per
 * session for a 40-item page; docs/decisions/performance.md, "Public runtime: statements per request"). Only frozen
 * objects are remembered, so what was checked cannot have changed since, and only when the check returned
 * them unchanged (nothing stripped or coerced: serving the object itself then sends exactly what the checked
 * copy would; key order aside, which zod sets from the schema); anything else is checked each time.
 * The schema itself is unchanged (the OpenAPI document is generated from it as before).
 */
export function checkedOnce<T extends z.ZodType>(schema: T): T {
  const checked = new WeakSet<object>();
  wrapParse(schema, (run) => (payload, ctx) => {
    const value = payload.value;
    const remember = typeof value === 'object' && value !== null && Object.isFrozen(value);
    if (remember && checked.has(value)) return payload;
    const result = run(payload, ctx);
    if (remember && !(result instanceof Promise) && result.issues.length === 0 && isDeepStrictEqual(result.value, value)) checked.add(value);
    return result;
  });
  return schema;
}
