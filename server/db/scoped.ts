import { and, asc, desc, eq, getTableColumns, getTableName, gt, is, lt, SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { errors } from '@/server/lib/errors';
import { placeholderNames, placeholders, prepared, type Preparable, type Prepared, type ResultOf } from './prepared';
import type { Queryable } from './types';

export interface Scope {
  tenantId: string;
  livemode: boolean;
}

/** A tenant-owned table; tables without `livemode` (people) are shared by both modes of the tenant. */
export type ScopedTable = PgTable & { id: AnyPgColumn; tenantId: AnyPgColumn; livemode?: AnyPgColumn };
type Row<T extends ScopedTable> = T['$inferSelect'];
type NewRow<T extends ScopedTable> = Omit<T['$inferInsert'], 'tenantId' | 'livemode'>;

export interface ListOptions {
  where?: SQL;
  limit?: number;
  startingAfter?: string;
  order?: 'newest' | 'oldest';
}

const TENANT = '__tenantId';
const LIVEMODE = '__livemode';
type ScopeValues = { [TENANT]: string; [LIVEMODE]: boolean };
/** Placeholder values by name; a missing one fails the statement before it is sent. */
type Values = Record<string, unknown>;

/** A statement rendered once (see prepared.ts) whose tenant and mode come only from `scoped(…).run`. */
export interface ScopedStatement<V extends Record<string, unknown>, R> {
  readonly prepared: Prepared<V & ScopeValues, R>;
}

/** The scope filter of a statement, as placeholders that `run` fills from the caller's scope. */
const ownPlaceholders = (t: ScopedTable): SQL =>
  t.livemode ? and(eq(t.tenantId, sql.placeholder(TENANT)), eq(t.livemode, sql.placeholder(LIVEMODE)))! : eq(t.tenantId, sql.placeholder(TENANT));

/**
 * Defines a statement over tenant data: `build` gets `own(table)`, the tenant-and-mode filter, and must use
 * it; a statement that does not take the tenant is refused the first time it is rendered.
 */
export function scopedStatement<B extends Preparable>(build: (own: (t: ScopedTable) => SQL, q: Queryable) => B): ScopedStatement<Values, ResultOf<B>> {
  return {
    prepared: prepared<B, Values & ScopeValues>(
      (q) => build(ownPlaceholders, q),
      (query) => {
        if (!placeholderNames(query.params).includes(TENANT)) throw new Error(`A scoped statement must filter by tenant: ${query.sql}`);
      },
    ),
  };
}

/** Key signature of an insert: which columns it sets (the rest take their defaults). */
export const setKeys = (row: Record<string, unknown>) => Object.keys(row).filter((k) => row[k] !== undefined);
const cache = new Map<string, ScopedStatement<Values, unknown>>();
/** One `scopedStatement` per key: for statements whose text depends on the call (which columns it sets). */
export function cachedStatement<B extends Preparable>(key: string, build: (own: (t: ScopedTable) => SQL, q: Queryable) => B): ScopedStatement<Values, ResultOf<B>> {
  let statement = cache.get(key);
  if (!statement) cache.set(key, (statement = scopedStatement(build) as ScopedStatement<Values, unknown>));
  return statement as ScopedStatement<Values, ResultOf<B>>;
}

/** Rows of another table that an insert writes in the same statement (a data-modifying CTE). */
export interface AlsoInsert {
  table: ScopedTable;
  rows: Record<string, unknown>[];
  /** With `updateWith`: the name of an `AlsoUpdate`; the rows are written only when that update changed nothing. */
  unless?: string;
  /** With `updateWith`: a row that would break a unique index is left out (ON CONFLICT DO NOTHING), the rest written. */
  skipDuplicates?: boolean;
}

/**
 * With `updateWith`: an UPDATE … RETURNING of another table in the same statement, named `name`. `build`
 * gets `own`, which it must use, and `moved`, a condition true only when the main update changed a row.
 * `key` names the shape of what `build` renders; `values` fill its placeholders.
 */
export interface AlsoUpdate {
  name: string;
  key: string;
  build: (own: (t: ScopedTable) => SQL, q: Queryable, moved: SQL) => Preparable;
  values: Values;
}

/** The placeholder names of a batch, by row and column: the same for every batch of one shape, so made once. */
const batchNames = new Map<string, string[][]>();

/** The row sets exactly `keys`, in that order (its `livemode` aside: the scope's mode is never a row's). */
function setsExactly(row: Record<string, unknown>, keys: string[]): boolean {
  let n = 0;
  for (const k of Object.keys(row)) if (k !== 'livemode' && row[k] !== undefined && k !== keys[n++]) return false;
  return n === keys.length;
}

/** A batch of rows as placeholders named `prefix + row + column`, and the values that fill them. */
function batch({ table, rows }: AlsoInsert, prefix: string) {
  const keys = setKeys(rows[0]).filter((k) => k !== 'livemode');
  const key = `${getTableName(table)}:${rows.length}:${keys.join(',')}`;
  let names = batchNames.get(prefix + key);
  if (!names) batchNames.set(prefix + key, (names = rows.map((_, i) => keys.map((k) => `${prefix}${i}:${k}`))));
  const values: Values = {};
  rows.forEach((row, i) => {
    if (!setsExactly(row, keys)) throw new Error('insert: every row of a table must set the same columns');
    keys.forEach((k, j) => (values[names[i][j]] = row[k]));
  });
  const render = () =>
    rows.map((_, i) => ({ ...placeholders(keys, `${prefix}${i}:`), tenantId: sql.placeholder(TENANT), ...(table.livemode ? { livemode: sql.placeholder(LIVEMODE) } : {}) }));
  return { key, prefix, values, render };
}

/** What an `also` CTE returns: the row's id, or the first column of a table keyed otherwise (intake_answers by submission). */
const keyOf = (t: ScopedTable): AnyPgColumn => (t.id as AnyPgColumn | undefined) ?? (Object.values(getTableColumns(t as PgTable))[0] as AnyPgColumn);

function insertStatement(main: AlsoInsert, also: AlsoInsert[], returning: boolean) {
  const others = also.filter((a) => a.rows.length > 0);
  const m = batch(main, 'm');
  const extra = others.map((a, i) => batch(a, `a${i}:`));
  const statement = cachedStatement(`insert:${[m, ...extra].map((b) => b.key).join('|')}:${returning}`, (_own, db) => {
    const ctes = others.map((a, i) => db.$with(`also_${i}`).as(db.insert(a.table as PgTable).values(extra[i].render() as never).returning({ id: keyOf(a.table) })));
    const base = (ctes.length ? db.with(...ctes) : db).insert(main.table as PgTable).values(m.render() as never);
    return returning ? base.returning() : base;
  });
  return [statement, Object.assign({}, m.values, ...extra.map((e) => e.values)) as Values] as const;
}

/**
 * `rows` as a SELECT over the CTE `source`, one row per row of `source` (so none when it returned none), or
 * with `source` as its own tail (a WHERE clause, say):
 * every column of the table in its order, as an insert … select needs them, each value cast to its column's
 * type (a bare parameter in a select list has no type of its own); unset columns take their defaults.
 */
function selectFrom(a: AlsoInsert, b: ReturnType<typeof batch>, source: string | SQL): SQL {
  const columns = Object.entries(getTableColumns(a.table as PgTable)).filter(([, c]) => !(c as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert());
  const keys = new Set(setKeys(a.rows[0]));
  const value = (key: string, column: AnyPgColumn, i: number): SQL => {
    if (key === 'tenantId') return sql`${sql.placeholder(TENANT)}::text`;
    if (key === 'livemode') return sql`${sql.placeholder(LIVEMODE)}::boolean`;
    // A default computed in JS would be computed once, when the statement is rendered.
    if ((column as { defaultFn?: unknown }).defaultFn) throw new Error(`updateWith: set ${getTableName(a.table)}.${key} (its default is computed in JS)`);
    const cast = sql.raw(column.getSQLType());
    if (keys.has(key)) return sql`${sql.param(sql.placeholder(`${b.prefix}${i}:${key}`), column)}::${cast}`;
    if (column.default === undefined) return sql`null::${cast}`;
    return is(column.default, SQL) ? column.default : sql`${sql.param(column.default, column)}::${cast}`;
  };
  const unless = a.unless ? sql` where not exists (select 1 from ${sql.identifier(a.unless)})` : sql``;
  const tail = typeof source === 'string' ? sql` from ${sql.identifier(source)}${unless}` : source;
  const selects = a.rows.map((_, i) => sql`select ${sql.join(columns.map(([key, column]) => value(key, column, i)), sql`, `)}${tail}`);
  return sql.join(selects, sql` union all `);
}

/**
 * An UPDATE … RETURNING (built by `build`, which must use `own`) and writes to other tables that happen
 * only when it changed a row, in one statement: `WITH moved AS (update) , <update> AS (update … where …
 * exists (select 1 from moved)) , also_0 AS (insert … select … from moved) … SELECT * FROM moved`. Returns
 * the statement (one per `key` and shape of `also` and `alsoUpdate`) and the placeholder values of both.
 */
export function updateWith<B extends Preparable>(key: string, build: (own: (t: ScopedTable) => SQL, q: Queryable) => B, also: AlsoInsert[], alsoUpdate: AlsoUpdate[] = []) {
  const others = also.filter((a) => a.rows.length > 0);
  const extra = others.map((a, i) => batch(a, `a${i}:`));
  const shape = [...alsoUpdate.map((u) => `${u.name}=${u.key}`), ...extra.map((b, i) => `${b.key}${others[i].unless ? `-${others[i].unless}` : ''}${others[i].skipDuplicates ? '-once' : ''}`)];
  const statement = cachedStatement(`${key}|${shape.join('|')}`, (own, db) => {
    const moved = db.$with('moved').as(build(own, db) as never);
    const updates = alsoUpdate.map((u) => db.$with(u.name).as(u.build(own, db, sql`exists (select 1 from ${sql.identifier('moved')})`) as never));
    const ctes = others.map((a, i) => {
      const insert = db.insert(a.table as PgTable).select(selectFrom(a, extra[i], 'moved'));
      return db.$with(`also_${i}`).as((a.skipDuplicates ? insert.onConflictDoNothing() : insert).returning({ id: a.table.id }));
    });
    return db.with(moved, ...updates, ...ctes).select().from(moved);
  });
  const values = Object.assign({}, ...alsoUpdate.map((u) => u.values), ...extra.map((e) => e.values)) as Values;
  return [statement as unknown as ScopedStatement<Values, ResultOf<B>>, values] as const;
}

/**
 * One row of `main.table`, inserted only when `where` (built with `own`, in the same statement) holds, and
 * `also` rows written only when it was: `WITH moved AS (insert … select … where …) , also_0 AS (…) SELECT *
 * FROM moved`. Returns the statement and the placeholder values of the rows; the caller adds the values
 * of `where`'s own placeholders.
 */
export function insertWhere<T extends ScopedTable>(key: string, main: AlsoInsert & { table: T }, where: (own: (t: ScopedTable) => SQL) => SQL, also: AlsoInsert[]) {
  const m = batch(main, 'm');
  const [statement, values] = updateWith(
    `insert-where:${key}:${m.key}`,
    (own, db) => db.insert(main.table as PgTable).select(selectFrom(main, m, sql` where ${where(own)}`)).returning(),
    also,
  );
  return [statement as unknown as ScopedStatement<Values, Row<T>[]>, { ...values, ...m.values }] as const;
}

/**
 * The only way domain code reads or writes tenant data: every statement built here is confined to the
 * principal's tenant and mode, so no caller can forget the filter. `bothModes` widens reads to the
 * tenant's sandbox and live rows, for the few tenant-wide resources (API keys seen by a live principal).
 */
export function scoped(q: Queryable, scope: Scope, opts: { bothModes?: boolean } = {}) {
  const own = (t: ScopedTable): SQL =>
    !t.livemode || opts.bothModes
      ? eq(t.tenantId, scope.tenantId)
      : and(eq(t.tenantId, scope.tenantId), eq(t.livemode, scope.livemode))!;

  const where = (t: ScopedTable, ...conds: (SQL | undefined)[]) => and(own(t), ...conds)!;

  return {
    scope,
    where,

    /** Runs a `scopedStatement` in this scope. */
    run<R>(statement: ScopedStatement<Values, R>, values: Values): Promise<R> {
      return statement.prepared.execute(q, { ...values, [TENANT]: scope.tenantId, [LIVEMODE]: scope.livemode });
    },

    async get<T extends ScopedTable>(t: T, id: string): Promise<Row<T> | undefined> {
      // Widened reads are a statement of their own: one rendered for a single mode would hide the other
      // mode's rows from a `bothModes` caller (an ops or live principal revoking a sandbox key got 404).
      const both = Boolean(opts.bothModes && t.livemode);
      const statement = cachedStatement(`get:${getTableName(t)}:${both ? 'both-modes' : 'own-mode'}`, (own, db) =>
        db
          .select()
          .from(t as PgTable)
          .where(and(both ? eq(t.tenantId, sql.placeholder(TENANT)) : own(t), eq(t.id, sql.placeholder('id'))))
          .limit(1),
      );
      const rows = (await this.run(statement, { id })) as unknown as Row<T>[];
      return rows[0];
    },

    /** Like get, but a missing row (or one of another tenant or mode) is the spec's 404. */
    async require<T extends ScopedTable>(t: T, id: string, what: string): Promise<Row<T>> {
      const row = await this.get(t, id);
      if (!row) throw errors.notFound(what, id);
      return row;
    },

    /** Cursor page by id; ids are time-sortable so id order is creation order. */
    async list<T extends ScopedTable>(t: T, o: ListOptions = {}): Promise<Row<T>[]> {
      const newest = (o.order ?? 'newest') === 'newest';
      if (!o.where) {
        // Rendered once per shape (issue 35: a list is what every integration reads first); a `where` is the caller's own SQL.
        const both = Boolean(opts.bothModes && t.livemode);
        const after = Boolean(o.startingAfter);
        const limited = Boolean(o.limit);
        const shape = `list:${getTableName(t)}:${both ? 'both-modes' : 'own-mode'}:${newest ? 'newest' : 'oldest'}:${after ? 'after' : 'first'}:${limited ? 'limit' : 'all'}`;
        const statement = cachedStatement(shape, (own, db) => {
          const cursor = after ? (newest ? lt(t.id, sql.placeholder('after')) : gt(t.id, sql.placeholder('after'))) : undefined;
          const base = db
            .select()
            .from(t as PgTable)
            .where(and(both ? eq(t.tenantId, sql.placeholder(TENANT)) : own(t), cursor))
            .orderBy(newest ? desc(t.id) : asc(t.id));
          return limited ? base.limit(sql.placeholder('limit')) : base;
        });
        return (await this.run(statement, { ...(after && { after: o.startingAfter }), ...(limited && { limit: o.limit }) })) as unknown as Row<T>[];
      }
      const cursor = o.startingAfter ? (newest ? lt(t.id, o.startingAfter) : gt(t.id, o.startingAfter)) : undefined;
      const base = q.select().from(t as PgTable).where(where(t, o.where, cursor)).orderBy(newest ? desc(t.id) : asc(t.id));
      return (await (o.limit ? base.limit(o.limit) : base)) as Row<T>[];
    },

    /** One row; `also` holds rows of other tables written by the same statement (they commit together). */
    async insert<T extends ScopedTable>(t: T, values: NewRow<T>, also: AlsoInsert[] = []): Promise<Row<T>> {
      const [created] = (await this.run(...insertStatement({ table: t, rows: [values] }, also, true))) as unknown as Row<T>[];
      return created;
    },

    /** Several rows in one statement, each confined to the scope like `insert` (all rows set the same columns). */
    async insertMany<T extends ScopedTable>(t: T, values: NewRow<T>[]): Promise<void> {
      if (values.length === 0) return;
      await this.run(...insertStatement({ table: t, rows: values }, [], false));
    },

    async update<T extends ScopedTable>(t: T, id: string, set: Partial<T['$inferInsert']>, extra?: SQL): Promise<Row<T> | undefined> {
      const { tenantId: _t, livemode: _l, id: _i, ...safe } = set as Record<string, unknown>;
      const rows = await q.update(t as PgTable).set(safe as never).where(where(t, eq(t.id, id), extra)).returning();
      return rows[0] as Row<T> | undefined;
    },
  };
}

