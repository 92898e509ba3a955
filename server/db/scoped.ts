import { and, asc, desc, eq, gt, lt, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { errors } from '@/server/lib/errors';
import type { Queryable } from './types';

export interface Scope {
  tenantId: string;
  livemode: boolean;
}

/** A tenant-owned table; tables without `livemode` (people) are shared by both modes of the tenant. */
export type ScopedTable = PgTable & { id: AnyPgColumn; tenantId: AnyPgColumn; livemode?: AnyPgColumn };
type Row<T extends ScopedTable> = T['$inferSelect'];
type NewRow<T extends ScopedTable> = Omit<T['$inferInsert'], 'tenantId' | 'livemode'> & { livemode?: boolean };

export interface ListOptions {
  where?: SQL;
  limit?: number;
  startingAfter?: string;
  order?: 'newest' | 'oldest';
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

    async get<T extends ScopedTable>(t: T, id: string): Promise<Row<T> | undefined> {
      const rows = await q.select().from(t as PgTable).where(where(t, eq(t.id, id))).limit(1);
      return rows[0] as Row<T> | undefined;
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
      const cursor = o.startingAfter ? (newest ? lt(t.id, o.startingAfter) : gt(t.id, o.startingAfter)) : undefined;
      const base = q.select().from(t as PgTable).where(where(t, o.where, cursor)).orderBy(newest ? desc(t.id) : asc(t.id));
      return (await (o.limit ? base.limit(o.limit) : base)) as Row<T>[];
    },

    async insert<T extends ScopedTable>(t: T, values: NewRow<T>): Promise<Row<T>> {
      const row = { ...(t.livemode ? { livemode: scope.livemode } : {}), ...values, tenantId: scope.tenantId };
      const [created] = await q.insert(t as PgTable).values(row as never).returning();
      return created as Row<T>;
    },

    /** Several rows in one statement, each confined to the scope like `insert`. */
    async insertMany<T extends ScopedTable>(t: T, values: NewRow<T>[]): Promise<void> {
      if (values.length === 0) return;
      const rows = values.map((v) => ({ ...(t.livemode ? { livemode: scope.livemode } : {}), ...v, tenantId: scope.tenantId }));
      await q.insert(t as PgTable).values(rows as never);
    },

    async update<T extends ScopedTable>(t: T, id: string, set: Partial<T['$inferInsert']>, extra?: SQL): Promise<Row<T> | undefined> {
      const { tenantId: _t, livemode: _l, id: _i, ...safe } = set as Record<string, unknown>;
      const rows = await q.update(t as PgTable).set(safe as never).where(where(t, eq(t.id, id), extra)).returning();
      return rows[0] as Row<T> | undefined;
    },
  };
}

export type ScopedDb = ReturnType<typeof scoped>;
