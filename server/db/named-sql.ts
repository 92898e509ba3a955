import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fill, slotsOf, statementName, type Slot } from './prepared';
import type { Queryable } from './types';

// Renders a `sql` template to text and parameters; the same rendering `db.execute` does (no casing rules are used here).
const dialect = new PgDialect();

/**
 * `q.execute(statement)`, but sent as a named statement on PostgreSQL, so the server parses and plans it
 * once per connection instead of on every call. For the raw statements of hot paths (data-modifying CTEs
 * the query builder cannot express); the name comes from the rendered text, so each shape a caller
 * produces (one event or two, a step that completes or not) is its own statement, and the same text is
 * always the same name, whichever copy of this module sent it. Public drizzle API only: the dialect's
 * `sqlToQuery` and the session's `prepareQuery`, the two calls `db.execute` itself makes, here with a name.
 * PGlite runs it like `execute` (it has no per-connection statement cache to fill).
 */
export async function executeNamed<Row extends Record<string, unknown>>(q: Queryable, statement: SQL): Promise<{ rows: Row[] }> {
  const query = dialect.sqlToQuery(statement);
  const result = await q._.session.prepareQuery(query, undefined, statementName(query.sql), false).execute();
  return result as { rows: Row[] };
}

/**
 * A raw statement of a hot path rendered once per shape: `build` writes it with `sql.placeholder(name)` for
 * every value that changes between calls (constants may stay inline), and `execute` fills the rendered text's
 * parameters from `values`, as a named statement like `executeNamed`. Rendering a CTE of this size with
 * drizzle costs more CPU than PostgreSQL spends running it, on every call (issue 35). `shape` picks among the
 * texts a caller may send (a step that completes or not); each shape is built on its first use.
 */
export function namedStatement<Shape extends string>(build: (shape: Shape) => SQL) {
  const rendered = new Map<Shape, { sql: string; slots: Slot[]; name: string }>();
  return {
    async execute<Row extends Record<string, unknown>>(q: Queryable, shape: Shape, values: Record<string, unknown>): Promise<{ rows: Row[] }> {
      let r = rendered.get(shape);
      if (!r) {
        const query = dialect.sqlToQuery(build(shape));
        rendered.set(shape, (r = { sql: query.sql, slots: slotsOf(query.params), name: statementName(query.sql) }));
      }
      const result = await q._.session.prepareQuery({ sql: r.sql, params: fill(r.slots, values) }, undefined, r.name, false).execute();
      return result as { rows: Row[] };
    },
  };
}
