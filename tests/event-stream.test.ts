import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@/server/db/client';
import { emitEvent, EVENTS_CHANNEL } from '@/server/domain/events/emit';
import { type Clinic, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, startWithTwoClinics, type TestApp } from './helpers/harness';
import { openStream } from './helpers/sse';
import { emit, orderData, waitFor } from './helpers/webhooks';

let app: TestApp;
let a: Clinic;
let b: Clinic;
const STREAM = '/v1/developer/events/stream';

// A long heartbeat: events must arrive through NOTIFY, not through the heartbeat's poll.
beforeAll(async () => ({ app, a, b } = await startWithTwoClinics({ SSE_HEARTBEAT_MS: '60000' })));
afterAll(async () => app?.close());

describe('GET /developer/events/stream', () => {
  it('streams the scope’s events as they happen, each with id:, in order', async () => {
    const stream = await openStream(app.baseUrl + STREAM, a.sandboxKey);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.res.headers.get('x-request-id')).toMatch(/^req_/);
    const scope = { tenantId: a.tenantId, livemode: false };
    const mine = [await emit(app, scope, 'order.routed', orderData()), await emit(app, scope, 'order.shipped', orderData('accepted'))];
    await emit(app, { tenantId: a.tenantId, livemode: true }, 'order.routed', orderData());
    await emit(app, { tenantId: b.tenantId, livemode: false }, 'order.routed', orderData());
    mine.push(await emit(app, scope, 'order.delivered', orderData('accepted')));
    await stream.waitFor((m) => m.filter((x) => x.data).length >= 3);
    await new Promise((ok) => setTimeout(ok, 400));
    const got = stream.events();
    expect(got.map((e) => e.id)).toEqual(mine.map((e) => e.id));
    for (const e of got) {
      const logged = await app.request('GET', `/v1/developer/events/${e.id}`, { key: a.sandboxKey });
      expect({ ...e }).toEqual({ ...logged.body });
    }
    await stream.close();
  });

  it('sends heartbeat comments on the configured interval', async () => {
    const hb = await startTestApp({ SSE_HEARTBEAT_MS: '200' });
    try {
      const t = await createTenantWithKeys(hb);
      const stream = await openStream(hb.baseUrl + STREAM, t.sandboxKey);
      await stream.waitFor((m) => m.filter((x) => x.comment === 'heartbeat').length >= 2);
      await stream.close();
    } finally {
      await hb.close();
    }
  });

  it('resumes after Last-Event-ID, then continues live', async () => {
    const t = await createTenantWithKeys(app, 'Resume');
    const scope = { tenantId: t.tenantId, livemode: true };
    const before = [];
    for (let i = 0; i < 4; i++) before.push(await emit(app, scope, 'order.routed', orderData()));
    const stream = await openStream(app.baseUrl + STREAM, t.liveKey, { 'Last-Event-ID': before[1].id });
    await stream.waitFor((m) => m.filter((x) => x.data).length >= 2);
    const live = await emit(app, scope, 'order.shipped', orderData('accepted'));
    await stream.waitFor((m) => m.filter((x) => x.data).length >= 3);
    expect(stream.events().map((e) => e.id)).toEqual([before[2].id, before[3].id, live.id]);
    await stream.close();
  });

  it('hears events committed by another connection (NOTIFY across processes on PostgreSQL)', async () => {
    const t = await createTenantWithKeys(app, 'Elsewhere');
    const other = app.databaseUrl ? await openDatabase({ databaseUrl: app.databaseUrl }) : null;
    try {
      const stream = await openStream(app.baseUrl + STREAM, t.sandboxKey);
      await stream.waitFor((m) => m.some((x) => x.comment === 'connected'));
      const db = other?.db ?? app.services.database.db;
      const event = await db.transaction((tx) => emitEvent(tx, { tenantId: t.tenantId, livemode: false }, 'order.routed', orderData()));
      await waitFor(() => stream.events().some((e) => e.id === event.id), { timeoutMs: 3_000, what: 'notified event' });
      await stream.close();
    } finally {
      await other?.close();
    }
  });

  it('NOTIFYs only for a scope with a stream open, until its listing lapses after the stream closes', async () => {
    // Heartbeat 200 ms: a stream's listing lasts three heartbeats past its last renewal.
    const hb = await startTestApp({ SSE_HEARTBEAT_MS: '200' });
    const heard: string[] = [];
    const unlisten = await hb.services.database.listen(EVENTS_CHANNEL, (payload) => heard.push(payload));
    try {
      const t = await createTenantWithKeys(hb, 'Presence');
      const scope = { tenantId: t.tenantId, livemode: false };
      const tag = `${t.tenantId}:sandbox`;
      const emitted = () => hb.services.database.db.transaction((tx) => emitEvent(tx, scope, 'order.routed', orderData()));
      const settle = () => new Promise((ok) => setTimeout(ok, 300));

      await emitted();
      await settle();
      expect(heard).toEqual([]);

      const stream = await openStream(hb.baseUrl + STREAM, t.sandboxKey);
      await stream.waitFor((m) => m.some((x) => x.comment === 'connected'));
      // Renewed past the first TTL by the heartbeats: still heard a second later.
      await new Promise((ok) => setTimeout(ok, 1_000));
      const live = await emitted();
      await waitFor(() => heard.includes(tag), { timeoutMs: 3_000, what: 'NOTIFY while streaming' });
      await stream.waitFor((m) => m.some((x) => x.id === live.id));
      await stream.close();

      await new Promise((ok) => setTimeout(ok, 900));
      heard.length = 0;
      await emitted();
      await settle();
      expect(heard).toEqual([]);
    } finally {
      await unlisten();
      await hb.close();
    }
  });

  it('answers 401, 403 (user session, missing scope), 400 and 405 with the envelope', async () => {
    const req = (key: string | null, headers: Record<string, string> = {}, method = 'GET') =>
      app.request(method, STREAM, { key, headers, body: method === 'GET' ? undefined : {} });
    expectEnvelope(await req(null), 401, 'authentication_error');
    expectEnvelope(await req('nk_sandbox_nope'), 401, 'authentication_error');
    const dev = await createUserAndLogin(app, a.tenantId, { email: 'dev@stream-a.test', role: 'developer' });
    expectEnvelope(await req(dev.token), 403, 'permission_error', 'api_key_required');
    const r = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'wh', keyType: 'restricted', scopes: ['webhooks.manage'] } });
    expectEnvelope(await req(r.body.key), 403, 'permission_error', 'missing_scope');
    const bad = await req(a.sandboxKey, { 'Last-Event-ID': 'yesterday' });
    expectEnvelope(bad, 400, 'validation_error', 'invalid_last_event_id');
    expect(bad.body.error.param).toBe('Last-Event-ID');
    const post = await req(a.sandboxKey, {}, 'POST');
    expectEnvelope(post, 405, 'validation_error', 'method_not_allowed');
    expect(post.headers.get('allow')).toBe('GET');
  });
});
