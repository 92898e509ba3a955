import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { countRows, createTenantWithKeys, startTestApp } from '../helpers/harness';
import { idlePglites } from '../helpers/pglite-pool';

// The suite's in-memory databases are lent to one app after another (tests/helpers/pglite-pool.ts): what one app
// wrote, listened to or broke must never reach the next, and its handle must refuse to work once it is closed.

describe('the test suite lends each app an emptied PGlite', () => {
  it('empties a database between apps and refuses the closed app its handle', async () => {
    const first = await startTestApp();
    await createTenantWithKeys(first, 'Left behind');
    expect(await countRows(first, 'tenants')).toBe(1);
    const idleBefore = idlePglites();
    const db = first.services.database.db;
    await first.close();
    expect(idlePglites()).toBe(idleBefore + 1);
    // drizzle wraps the driver's error as the cause of its own.
    await expect(db.execute(sql`select 1`)).rejects.toMatchObject({ cause: { message: 'PGlite is closed' } });

    const second = await startTestApp();
    expect(idlePglites()).toBe(idleBefore);
    expect(await countRows(second, 'tenants')).toBe(0);
    // The ops key the app ensures at start is there again, and only once.
    expect(await countRows(second, 'api_keys')).toBe(1);
    await createTenantWithKeys(second, 'Fresh');
    await second.close();
  });

  it('does not lend again a database whose schema or migrations an app changed', async () => {
    const app = await startTestApp();
    await app.services.database.db.execute(sql`drop table drizzle.__drizzle_migrations`);
    const idleBefore = idlePglites();
    await app.close();
    expect(idlePglites()).toBe(idleBefore);

    const next = await startTestApp();
    const journal = (await next.services.database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as { rows: { n: number }[] };
    expect(journal.rows[0].n).toBeGreaterThan(0);
    await next.close();
  });

  it('rolls back what an app left open and unlistens what it listened to', async () => {
    const listening = async (app: Awaited<ReturnType<typeof startTestApp>>) =>
      ((await app.services.database.db.execute(sql`select pg_listening_channels() as channel order by 1`)) as unknown as { rows: { channel: string }[] }).rows.map((r) => r.channel);
    const app = await startTestApp();
    const channels = await listening(app);
    await app.services.database.db.execute(sql`begin`);
    await app.services.database.db.execute(sql`insert into tenants (id, name) values ('ten_left_open', 'Open')`);
    await app.services.database.db.execute(sql`listen left_behind`);
    await app.close();

    const next = await startTestApp();
    expect(await countRows(next, 'tenants')).toBe(0);
    expect(await listening(next)).toEqual(channels);
    await next.close();
  });
});
