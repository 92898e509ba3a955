import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { slotsOf, statementName } from './prepared';
import type { Queryable } from './types';

// Renders a `sql` template to text and parameters; the same rendering `db.execute` does (no casing rules are used here).
const dialect = new PgDialect();

/** A rendered parameter: a constant, or the field of a group of values that fills it. */
type NamedSlot = { constant: unknown } | { group: string; field: string };

/** Values by group: `sql.placeholder('group.field')` takes `values.group.field`. */
export type StatementValues = Record<string, Record<string, unknown>>;

function fillNamed(slots: NamedSlot[], values: StatementValues): unknown[] {
  return slots.map((slot) => {
    if ('constant' in slot) return slot.constant;
    const group = values[slot.group];
    if (!group || !(slot.field in group)) throw new Error(`No value for placeholder "${slot.group}.${slot.field}"`);
    return group[slot.field] ?? null;
  });
}

/**
 * A raw statement (data-modifying CTEs the query builder cannot express, locks, notifications) rendered once
 * per shape and sent as a named statement on PostgreSQL, so the server parses and plans it once per
 * connection. `build` writes it with `sql.placeholder('group.field')` for every value that changes between
 * calls (constants may stay inline), and `execute` fills the rendered text's parameters from
 * `values.group.field`. Rendering a CTE of a run's size with drizzle costs more CPU than PostgreSQL spends
 * running it (issue 35); the values come in small groups of fixed shape (the session's, a count's, an
 * event's), cheap to build. `shape` picks among the texts a caller may send (a step that completes or not);
 * each is built on its first use. The name comes from the text, so the same text is the same name whichever
 * copy of this module sent it. Public drizzle API only: the dialect's `sqlToQuery` and the session's
 * `prepareQuery`, the two calls `db.execute` makes, here with a name. PGlite runs it like `execute` (it has
 * no per-connection statement cache to fill).
 */
export function namedStatement<Shape extends string>(build: (shape: Shape) => SQL) {
  const rendered = new Map<Shape, { sql: string; slots: NamedSlot[]; name: string }>();
  return {
    async execute<Row extends Record<string, unknown>>(q: Queryable, shape: Shape, values: StatementValues): Promise<{ rows: Row[] }> {
      let r = rendered.get(shape);
      if (!r) {
        const query = dialect.sqlToQuery(build(shape));
        const slots = slotsOf(query.params).map((slot): NamedSlot => {
          if ('constant' in slot) return slot;
          const [group = '', field = ''] = slot.name.split('.');
          return { group, field };
        });
        rendered.set(shape, (r = { sql: query.sql, slots, name: statementName(query.sql) }));
      }
      const result = await q._.session.prepareQuery({ sql: r.sql, params: fillNamed(r.slots, values) }, undefined, r.name, false).execute();
      return result as { rows: Row[] };
    },
  };
}
