import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { statementName } from './prepared';
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
