import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '@/server/lib/clock';
import { startTestApp, type TestApp } from './helpers/harness';

function expectProbeHeaders(res: { headers: Headers }) {
  expect(res.headers.get('content-type')).toBe('application/json');
  expect(res.headers.get('cache-control')).toBe('no-store');
}

describe('/healthz and /readyz with the worker in the process', () => {
  let app: TestApp;
  // A long poll: the loop beats once, then sleeps, so only a moved clock (or a stop) makes its beat old.
  beforeAll(async () => {
    app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '60000' });
  });
  afterAll(() => app?.close());
  afterEach(() => setClock(null));

  it('answers liveness and readiness without credentials, never cached', async () => {
    const live = await app.request('GET', '/healthz', { key: null });
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    expectProbeHeaders(live);

    const ready = await app.request('GET', '/readyz', { key: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', worker: 'ok' } });
    expectProbeHeaders(ready);
  });

  it('refuses other methods with the error envelope', async () => {
    const res = await app.request('POST', '/readyz', { body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(res.body.error.code).toBe('method_not_allowed');
  });

  it('is 503 naming the worker when its loop has not gone round for five poll intervals', async () => {
    const later = Date.now() + 5 * 60_000 + 1_000;
    setClock(() => new Date(later));
    const res = await app.request('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'ok', worker: 'failing' } });
    expectProbeHeaders(res);
  });

  it('is 503 naming the worker once it is stopped while RUN_WORKER is on; liveness still answers', async () => {
    await app.worker!.stop();
    const res = await app.request('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'ok', worker: 'failing' } });
    expect((await app.request('GET', '/healthz')).status).toBe(200);
  });
});

describe('/readyz without a worker, as its database goes wrong', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RUN_WORKER: 'false' });
  });
  afterAll(() => app?.close());

  it('reports the worker as disabled when RUN_WORKER is off', async () => {
    const res = await app.request('GET', '/readyz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'ok', migrations: 'ok', worker: 'disabled' } });
  });

  it('is 503 naming migrations when the newest one is not applied, and when none is', async () => {
    const { db } = app.services.database;
    await db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`);
    const behind = await app.request('GET', '/readyz');
    expect(behind.status).toBe(503);
    expect(behind.body).toEqual({ status: 'unavailable', checks: { database: 'ok', migrations: 'failing', worker: 'disabled' } });

    await db.execute(sql`drop table drizzle.__drizzle_migrations`);
    const none = await app.request('GET', '/readyz');
    expect(none.status).toBe(503);
    expect(none.body.checks).toEqual({ database: 'ok', migrations: 'failing', worker: 'disabled' });
  });

  it('is 503 naming the database when it cannot be reached', async () => {
    await app.services.database.close();
    // Closed here already; the harness must not close it a second time.
    app.services.close = async () => undefined;
    const res = await app.request('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'failing', migrations: 'unknown', worker: 'disabled' } });
    expectProbeHeaders(res);
    expect((await app.request('GET', '/healthz')).status).toBe(200);
  });
});
