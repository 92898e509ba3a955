import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '@/server/db/client';
import { emitEvent, EVENTS_CHANNEL } from '@/server/domain/events/emit';
import { type Clinic, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, startWithTwoClinics, type TestApp } from './helpers/harness';
import { openStream } from './helpers/sse';
import { emit, orderData, TEST_TIMEOUT_MS, waitFor } from './helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS });

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
    await stream.waitFor((m) => m.filter((x) => x.data).length >= 3, { what: 'three events' });
    // A last event of the scope closes the run: the stream writes in id order, one read after another, so once
    // it is in, anything else the stream would send (another scope's event, a repeat) would be in too.
    const last = await emit(app, scope, 'order.shipped', orderData('accepted'));
    mine.push(last);
    await stream.waitFor((m) => m.some((x) => x.id === last.id), { what: 'the closing event' });
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
      await stream.waitFor((m) => m.filter((x) => x.comment === 'heartbeat').length >= 2, { what: 'two heartbeats' });
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
    await stream.waitFor((m) => m.filter((x) => x.data).length >= 2, { what: 'the two events after Last-Event-ID' });
    const live = await emit(app, scope, 'order.shipped', orderData('accepted'));
    await stream.waitFor((m) => m.filter((x) => x.data).length >= 3, { what: 'the live event' });
    expect(stream.events().map((e) => e.id)).toEqual([before[2].id, before[3].id, live.id]);
    await stream.close();
  });

  it('hears events committed by another connection (NOTIFY across processes on PostgreSQL)', async () => {
    const t = await createTenantWithKeys(app, 'Elsewhere');
    const other = app.databaseUrl ? await openDatabase({ databaseUrl: app.databaseUrl }) : null;
    try {
      const stream = await openStream(app.baseUrl + STREAM, t.sandboxKey);
      await stream.waitFor((m) => m.some((x) => x.comment === 'connected'), { what: 'the connected comment' });
      const db = other?.db ?? app.services.database.db;
      const event = await db.transaction((tx) => emitEvent(tx, { tenantId: t.tenantId, livemode: false }, 'order.routed', orderData()));
      // The heartbeat (a minute) is no poll within the wait: only the NOTIFY brings the event.
      await waitFor(() => stream.events().some((e) => e.id === event.id), { what: 'the event committed by the other connection' });
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
    const db = hb.services.database.db;
    const rows = <T>(q: SQL) => db.execute(q).then((r) => (r as unknown as { rows: T[] }).rows);
    try {
      const t = await createTenantWithKeys(hb, 'Presence');
      const scope = { tenantId: t.tenantId, livemode: false };
      const tag = `${t.tenantId}:sandbox`;
      const emitted = () => db.transaction((tx) => emitEvent(tx, scope, 'order.routed', orderData()));
      // Notifications reach a listener in the order their transactions committed: once a marker sent after a
      // commit is heard, whatever that commit sent has been heard too. What was heard before the marker:
      let markers = 0;
      const heardBeforeMarker = async () => {
        const marker = `marker-${++markers}`;
        await rows(sql`select pg_notify(${EVENTS_CHANNEL}, ${marker})`);
        await waitFor(() => heard.includes(marker), { what: `the NOTIFY ${marker}` });
        return heard.slice(0, heard.indexOf(marker)).filter((p) => !p.startsWith('marker-'));
      };
      // The trigger's own test (migration 0009): is the scope listed now, by the database's clock?
      const listed = async () => (await rows<{ listed: boolean }>(sql`select exists (select 1 from event_streams where id = ${tag} and until > clock_timestamp()) as listed`))[0].listed;

      await emitted();
      expect(await heardBeforeMarker()).toEqual([]);

      heard.length = 0;
      const stream = await openStream(hb.baseUrl + STREAM, t.sandboxKey);
      await stream.waitFor((m) => m.some((x) => x.comment === 'connected'), { what: 'the connected comment' });
      // Renewed past the first TTL by the heartbeats: still heard once the listing made on connecting has lapsed.
      const [{ until }] = await rows<{ until: string }>(sql`select until::text as until from event_streams where id = ${tag}`);
      await waitFor(async () => (await rows<{ past: boolean }>(sql`select clock_timestamp() > ${until}::timestamptz as past`))[0].past, {
        what: `the database's clock to pass the first listing's end (${until})`,
      });
      const live = await emitted();
      await waitFor(() => heard.includes(tag), { what: 'the NOTIFY while streaming' });
      await stream.waitFor((m) => m.some((x) => x.id === live.id), { what: 'the event emitted while streaming' });
      await stream.close();

      // Closed: no heartbeat renews the listing, which lapses three heartbeats after the last renewal.
      await waitFor(async () => !(await listed()), { what: 'the listing to lapse after the stream closed' });
      heard.length = 0;
      await emitted();
      expect(await heardBeforeMarker()).toEqual([]);
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
