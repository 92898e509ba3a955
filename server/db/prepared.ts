import { createHash } from 'node:crypto';
import { is, Param, Placeholder, sql } from 'drizzle-orm';
import type { Queryable } from './types';

/**
 * Statements rendered once. Building a query with drizzle's builder costs several times what running it
 * does (measured: ≈ 0.4 ms of CPU against ≈ 0.1 ms on PostgreSQL), so the hot paths build each statement
 * once, with placeholders for every value, and run the rendered text on whichever connection or
 * transaction the caller holds. On PostgreSQL it is a named prepared statement, so the server parses and
 * plans it once per connection as well. Values still pass through the columns' encoders (dates, JSON)
 * exactly as in a built query, and rows come back mapped the same way.
 */

interface DrizzlePrepared {
  execute(values?: Record<string, unknown>): Promise<unknown>;
}
export interface Preparable {
  prepare(name: string): DrizzlePrepared;
}
/** What the builder's own `execute` would have returned. */
export type ResultOf<B extends Preparable> = Awaited<ReturnType<ReturnType<B['prepare']>['execute']>>;

// drizzle's prepared queries keep these; a query prepared on one session is re-created on another from them.
interface PreparedInternals extends DrizzlePrepared {
  getQuery(): { sql: string; params: unknown[] };
  fields?: unknown;
  joinsNotNullableMap?: unknown;
}
interface Template {
  query: { sql: string; params: unknown[] };
  slots: Slot[];
  fields: unknown;
  joins: unknown;
}

export interface Prepared<V extends Record<string, unknown>, R> {
  execute(q: Queryable, values: V): Promise<R>;
}

/**
 * A statement's name on the PostgreSQL connection comes from its text, not from the order statements are
 * defined in: Next.js bundles its own copy of server modules, and both copies share the pool's connections.
 * Computed once per statement, when it is first rendered.
 */
export const statementName = (text: string) => `fr_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;

/** A placeholder per key, named `prefix + key`: the values (or `set`) of a rendered insert or update. */
export const placeholders = (keys: string[], prefix = '') => Object.fromEntries(keys.map((k) => [k, sql.placeholder(prefix + k)]));

function valueOf(values: Record<string, unknown>, name: string) {
  if (!(name in values)) throw new Error(`No value for placeholder "${name}"`);
  return values[name];
}

/**
 * The placeholder a rendered parameter stands for: bare, or inside a column's encoder. drizzle's `is`, not
 * `instanceof`: Next.js bundles its own drizzle-orm, so a console action's statement holds this copy's
 * placeholders wrapped in `Param`s of the copy that built the shared database handle (an insert through
 * the console was refused as not filtering by tenant, and its values were never filled).
 */
const placeholderOf = (p: unknown) => (is(p, Placeholder) ? p : is(p, Param) && is(p.value, Placeholder) ? p.value : undefined);

/**
 * Each rendered parameter, resolved once per statement: a constant, or a placeholder's name with the column's
 * encoder when it sits inside one (drizzle's `is` walks prototypes, too slow to repeat per call and parameter).
 */
type Slot = { constant: unknown } | { name: string; encoder: { mapToDriverValue(v: unknown): unknown } | null };
export const slotsOf = (params: unknown[]): Slot[] =>
  params.map((p) => {
    const placeholder = placeholderOf(p);
    if (!placeholder) return { constant: p };
    return { name: placeholder.name, encoder: is(p, Param) ? p.encoder : null };
  });

/** drizzle's own fill, except that null and undefined stay null instead of going through the column's encoder. */
function fill(slots: Slot[], values: Record<string, unknown>): unknown[] {
  return slots.map((slot) => {
    if ('constant' in slot) return slot.constant;
    const value = valueOf(values, slot.name);
    if (value == null) return null;
    return slot.encoder ? slot.encoder.mapToDriverValue(value) : value;
  });
}

/** The placeholders a rendered statement takes. */
export function placeholderNames(params: unknown[]): string[] {
  return params.flatMap((p) => placeholderOf(p)?.name ?? []);
}

/**
 * A statement built by `build` on first use and reused after. `check` sees the rendered statement once
 * and may refuse it (the scoped helper checks that it is confined to a tenant).
 */
export function prepared<B extends Preparable, V extends Record<string, unknown>>(build: (q: Queryable) => B, check?: (query: Template['query']) => void): Prepared<V, ResultOf<B>> {
  let template: (Template & { name: string }) | undefined;
  return {
    async execute(q, values): Promise<ResultOf<B>> {
      if (!template) {
        const first = build(q).prepare('') as unknown as PreparedInternals;
        // A drizzle release that renamed the mapping's field would return unmapped rows: refuse at once instead.
        if (!('fields' in first)) throw new Error('server/db/prepared.ts: drizzle-orm\'s prepared query no longer carries `fields`; see docs/decisions/data.md (the prepared-statement layer)');
        const query = first.getQuery();
        check?.(query);
        template = { query, slots: slotsOf(query.params), fields: first.fields, joins: first.joinsNotNullableMap, name: statementName(query.sql) };
      }
      // The session and its prepareQuery are drizzle's public, typed API (what `db.execute` uses); the
      // mapping the first prepared query carries is not, and is checked when it is first read.
      const run = q._.session.prepareQuery({ sql: template.query.sql, params: fill(template.slots, values) }, template.fields as never, template.name, true) as unknown as PreparedInternals;
      run.joinsNotNullableMap = template.joins;
      return (await run.execute()) as Awaited<ResultOf<B>>;
    },
  };
}
