import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs, orders, patients, tenants } from '@/db/schema';
import { placeholders } from '@/server/db/prepared';
import { scoped, scopedStatement, updateWith } from '@/server/db/scoped';
import { jobRow } from '@/server/db/outbox';
import { namedStatement } from '@/server/db/named-sql';
import { type Clinic, startWithTwoClinics, type TestApp } from './helpers/harness';

let app: TestApp;
let a: Clinic;
let b: Clinic;

const patientBody = (lastName: string) => ({ firstName: 'Rae', lastName, dateOfBirth: '1980-02-03', sex: 'female', address: { line1: '1 Main', city: 'LA', state: 'CA', postalCode: '90001' } });

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());

// Statements rendered once and reused (server/db/prepared.ts) must keep the scoped helper's guarantees.
describe('rendered statements', () => {
  it('a scoped statement sees only the running scope’s rows, whichever scope rendered it first', async () => {
    const mine = (await app.request('POST', '/v1/patients', { key: a.sandboxKey, body: patientBody('Alpha') })).body.id;
    const theirs = (await app.request('POST', '/v1/patients', { key: b.sandboxKey, body: patientBody('Beta') })).body.id;
    const db = app.services.database.db;
    const byName = scopedStatement((own, q) => q.select({ id: patients.id }).from(patients).where(own(patients)).orderBy(patients.id));
    const asA = await scoped(db, { tenantId: a.tenantId, livemode: false }).run(byName, {});
    const asB = await scoped(db, { tenantId: b.tenantId, livemode: false }).run(byName, {});
    const asALive = await scoped(db, { tenantId: a.tenantId, livemode: true }).run(byName, {});
    expect(asA.map((r) => r.id)).toEqual([mine]);
    expect(asB.map((r) => r.id)).toEqual([theirs]);
    expect(asALive).toEqual([]);
    // The same rendered get, inside a transaction, for either tenant.
    await db.transaction(async (tx) => {
      expect((await scoped(tx, { tenantId: a.tenantId, livemode: false }).get(patients, mine))?.lastName).toBe('Alpha');
      expect(await scoped(tx, { tenantId: a.tenantId, livemode: false }).get(patients, theirs)).toBeUndefined();
    });
  });

  it('refuses a statement that does not filter by tenant, before sending it', async () => {
    const leaky = scopedStatement((_own, q) => q.select({ id: orders.id }).from(orders).where(eq(orders.status, 'draft')));
    await expect(scoped(app.services.database.db, { tenantId: a.tenantId, livemode: false }).run(leaky, {})).rejects.toThrow(/must filter by tenant/);
  });

  it('a missing value fails the statement; null values stay null', async () => {
    const byId = scopedStatement((own, q) => q.select({ id: patients.id, phone: patients.phone }).from(patients).where(sql`${own(patients)} and ${patients.id} = ${sql.placeholder('id')}`));
    const s = scoped(app.services.database.db, { tenantId: a.tenantId, livemode: false });
    await expect(s.run(byId, {})).rejects.toThrow(/No value for placeholder "id"/);
    const created = (await app.request('POST', '/v1/patients', { key: a.sandboxKey, body: patientBody('Gamma') })).body;
    expect(await s.run(byId, { id: created.id })).toEqual([{ id: created.id, phone: null }]);
  });

  it('a second copy of the module (Next.js bundles its own) shares a connection without statement name clashes', async () => {
    vi.resetModules();
    const first = await import('@/server/db/prepared');
    vi.resetModules();
    const second = await import('@/server/db/prepared');
    expect(second.prepared).not.toBe(first.prepared);
    // Defined first in each copy: with names from a per-copy counter both would be called the same.
    const ids = first.prepared((q) => q.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, sql.placeholder('id'))));
    const names = second.prepared((q) => q.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, sql.placeholder('id'))));
    // One transaction is one connection on PostgreSQL, so both statements are prepared on it.
    const [byId, byName] = await app.services.database.db.transaction(async (tx) => [await ids.execute(tx, { id: a.tenantId }), await names.execute(tx, { id: a.tenantId })]);
    expect(byId).toEqual([{ id: a.tenantId }]);
    expect(byName).toEqual([{ name: 'Clinic A' }]);
    expect(first.statementName('select 1')).toBe(second.statementName('select 1'));
  });

  it('updateWith writes its other rows only when the update changed one, with the columns’ defaults', async () => {
    const db = app.services.database.db;
    const created = (await app.request('POST', '/v1/patients', { key: a.sandboxKey, body: patientBody('Delta') })).body;
    const renamed = (job: ReturnType<typeof jobRow>) =>
      updateWith(
        'test.rename',
        (own, q) =>
          q
            .update(patients)
            .set(placeholders(['lastName']))
            .where(sql`${own(patients)} and ${patients.id} = ${sql.placeholder('id')}`)
            .returning({ id: patients.id, lastName: patients.lastName }),
        [{ table: jobs, rows: [job] }],
      );
    const run = async (tenantId: string, job: ReturnType<typeof jobRow>) => {
      const [statement, values] = renamed(job);
      return scoped(db, { tenantId, livemode: false }).run(statement, { ...values, id: created.id, lastName: 'Epsilon' });
    };
    const jobOf = async (id: string) => (await db.select().from(jobs).where(eq(jobs.id, id)))[0];
    // Another tenant's update matches no row: nothing changes and no job is written.
    const missed = jobRow({ kind: 'test.noop', payload: { n: 1 } });
    expect(await run(b.tenantId, missed)).toEqual([]);
    expect(await jobOf(missed.id)).toBeUndefined();
    expect((await scoped(db, { tenantId: a.tenantId, livemode: false }).get(patients, created.id))?.lastName).toBe('Delta');
    // The own tenant's moves the row and writes the job, its unset columns at their defaults.
    const hit = jobRow({ kind: 'test.noop', payload: { n: 2, list: [1, 2] } });
    expect(await run(a.tenantId, hit)).toEqual([{ id: created.id, lastName: 'Epsilon' }]);
    expect(await jobOf(hit.id)).toMatchObject({ tenantId: a.tenantId, livemode: false, kind: 'test.noop', payload: { n: 2, list: [1, 2] }, status: 'pending', attempts: 0, lockedBy: null });
    await db.delete(jobs).where(eq(jobs.id, hit.id));
  });
  it('updateWith: an update of another table applies only when the main update changed a row; an insert marked `unless` only when that update changed nothing', async () => {
    const db = app.services.database.db;
    const created = (await app.request('POST', '/v1/patients', { key: a.sandboxKey, body: patientBody('Zeta') })).body;
    const waiting = jobRow({ kind: 'test.waiting', payload: {} });
    await scoped(db, { tenantId: a.tenantId, livemode: false }).insertMany(jobs, [waiting]);
    const run = async (tenantId: string, fallback: ReturnType<typeof jobRow>) => {
      const [statement, values] = updateWith(
        'test.rename-and-flip',
        (own, q) =>
          q
            .update(patients)
            .set(placeholders(['lastName']))
            .where(sql`${own(patients)} and ${patients.id} = ${sql.placeholder('id')}`)
            .returning({ id: patients.id }),
        [{ table: jobs, rows: [fallback], unless: 'flipped' }],
        [
          {
            name: 'flipped',
            key: 'flip',
            build: (own, q, moved) =>
              q
                .update(jobs)
                .set({ kind: 'test.flipped' })
                .where(sql`${own(jobs)} and ${jobs.id} = ${sql.placeholder('jobId')} and ${jobs.kind} = 'test.waiting' and ${moved}`)
                .returning({ id: jobs.id }),
            values: { jobId: waiting.id },
          },
        ],
      );
      return scoped(db, { tenantId, livemode: false }).run(statement, { ...values, id: created.id, lastName: 'Eta' });
    };
    const kindOf = async (id: string) => (await db.select({ kind: jobs.kind }).from(jobs).where(eq(jobs.id, id)))[0]?.kind;
    // Another tenant's update matches no row: neither the update nor the insert happens.
    const first = jobRow({ kind: 'test.fallback', payload: {} });
    expect(await run(b.tenantId, first)).toEqual([]);
    expect(await kindOf(waiting.id)).toBe('test.waiting');
    expect(await kindOf(first.id)).toBeUndefined();
    // Own tenant: the other table's update applies, so the `unless` insert does not.
    const second = jobRow({ kind: 'test.fallback', payload: {} });
    expect(await run(a.tenantId, second)).toEqual([{ id: created.id }]);
    expect(await kindOf(waiting.id)).toBe('test.flipped');
    expect(await kindOf(second.id)).toBeUndefined();
    // Again: the job is flipped already, its update changes nothing, so the insert happens instead.
    const third = jobRow({ kind: 'test.fallback', payload: {} });
    expect(await run(a.tenantId, third)).toEqual([{ id: created.id }]);
    expect(await kindOf(third.id)).toBe('test.fallback');
    await db.delete(jobs).where(eq(jobs.tenantId, a.tenantId));
  });

  it('maps a nested, left-joined selection as drizzle does: the joined table null when no row matched, dates decoded, in a transaction too', async () => {
    const db = app.services.database.db;
    const created = (await app.request('POST', '/v1/patients', { key: a.sandboxKey, body: patientBody('Epsilon') })).body;
    // Each clinic's row, with the patient left-joined within the running scope: clinic A's finds it, B's cannot.
    const joined = scopedStatement((own, q) =>
      q
        .select({ order: { id: tenants.id }, patient: patients })
        .from(tenants)
        .leftJoin(patients, and(own(patients), eq(patients.id, sql.placeholder('patientId'))))
        .where(eq(tenants.id, sql.placeholder('tenantId'))),
    );
    const asA = scoped(db, { tenantId: a.tenantId, livemode: false });
    const [found] = await asA.run(joined, { tenantId: a.tenantId, patientId: created.id });
    expect(found?.order).toEqual({ id: a.tenantId });
    expect(found?.patient?.id).toBe(created.id);
    expect(found?.patient?.createdAt).toBeInstanceOf(Date);
    const [missing] = await db.transaction((tx) => scoped(tx, { tenantId: b.tenantId, livemode: false }).run(joined, { tenantId: b.tenantId, patientId: created.id }));
    expect(missing).toEqual({ order: { id: b.tenantId }, patient: null });
  });

  it('namedStatement runs a raw statement by name, again on the same connection, each shape under its own name', async () => {
    const db = app.services.database.db;
    const p = sql.placeholder;
    const statement = namedStatement((shape: 'n' | 'n+m') => (shape === 'n' ? sql`select ${p('v.n')}::int as n` : sql`select ${p('v.n')}::int as n, ${'x'}::text as m`));
    const twice = await db.transaction(async (tx) => [
      await statement.execute<{ n: number }>(tx, 'n', { v: { n: 1 } }),
      await statement.execute<{ n: number }>(tx, 'n', { v: { n: 2 } }),
      await statement.execute<{ n: number; m: string }>(tx, 'n+m', { v: { n: 3 } }),
    ]);
    expect(twice.map((r) => r.rows)).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 3, m: 'x' }]]);
    // A value left out is refused before anything is sent, naming its placeholder.
    await expect(statement.execute(db, 'n', { v: {} })).rejects.toThrow('No value for placeholder "v.n"');
  });
});
