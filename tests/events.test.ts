import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countEnabledWebhookEndpoints, countEventsThisPeriod } from '@/server/domain/developer/usage-counters';
import { type Clinic, countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startWithTwoClinics, type TestApp, withSecondDrizzleCopy } from './helpers/harness';
import { emit, orderData } from './helpers/webhooks';

let app: TestApp;
let a: Clinic;
let b: Clinic;
const sandbox = () => ({ tenantId: a.tenantId, livemode: false });

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());

const get = (key: string, path: string) => app.request('GET', `/v1/developer/events${path}`, { key });

describe('emitEvent', () => {
  it('refuses undeclared keys, free text and unknown types, writing nothing', async () => {
    const before = await Promise.all(['events', 'jobs', 'webhook_deliveries'].map((t) => countRows(app, t)));
    await expect(emit(app, sandbox(), 'order.routed', { ...orderData(), patientName: 'x' } as never)).rejects.toThrow(/undeclared keys patientName/);
    await expect(emit(app, sandbox(), 'order.routed', { ...orderData(), orderId: 'Jane Doe' })).rejects.toThrow(/orderId/);
    await expect(emit(app, sandbox(), 'order.rejected', orderData() as never)).rejects.toThrow(/reasonCode/);
    await expect(emit(app, sandbox(), 'order.rejected', { ...orderData(), reasonCode: 'Out of stock for Jane' })).rejects.toThrow(/reasonCode/);
    await expect(emit(app, sandbox(), 'patient.updated' as never, {} as never)).rejects.toThrow(/unknown event type/);
    expect(await Promise.all(['events', 'jobs', 'webhook_deliveries'].map((t) => countRows(app, t)))).toEqual(before);
  });

  it('rolls back with the caller’s transaction', async () => {
    const before = await countRows(app, 'events');
    await expect(
      app.services.database.db.transaction(async (tx) => {
        const { emitEvent } = await import('@/server/domain/events/emit');
        await emitEvent(tx, sandbox(), 'order.routed', orderData());
        throw new Error('state change failed');
      }),
    ).rejects.toThrow('state change failed');
    expect(await countRows(app, 'events')).toBe(before);
  });
});

describe('GET /developer/events', () => {
  it('lists newest first with the EventList shape, filters by type and pages with starting_after', async () => {
    const t = await createTenantWithKeys(app, 'Pager');
    const scope = { tenantId: t.tenantId, livemode: false };
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await emit(app, scope, i % 2 ? 'order.shipped' : 'order.routed', orderData()));
    const all = await get(t.sandboxKey, '');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body).sort()).toEqual(['data', 'has_more', 'object']);
    expect(all.body.object).toBe('list');
    expect(all.body.has_more).toBe(false);
    expect(all.body.data.map((e: { id: string }) => e.id)).toEqual(made.map((e) => e.id).reverse());
    expect(Object.keys(all.body.data[0]).sort()).toEqual(['createdAt', 'data', 'id', 'type']);

    const page1 = await get(t.sandboxKey, '?limit=2');
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.has_more).toBe(true);
    const page2 = await get(t.sandboxKey, `?limit=2&starting_after=${page1.body.data[1].id}`);
    const page3 = await get(t.sandboxKey, `?limit=2&starting_after=${page2.body.data[1].id}`);
    expect(page3.body).toMatchObject({ has_more: false });
    expect([...page1.body.data, ...page2.body.data, ...page3.body.data].map((e: { id: string }) => e.id)).toEqual(all.body.data.map((e: { id: string }) => e.id));

    const shipped = await get(t.sandboxKey, '?type=order.shipped');
    expect(shipped.body.data.map((e: { type: string }) => e.type)).toEqual(['order.shipped', 'order.shipped']);
  });

  it('defaults to 50 and accepts 1 to 100', async () => {
    const t = await createTenantWithKeys(app, 'Many');
    const scope = { tenantId: t.tenantId, livemode: true };
    for (let i = 0; i < 55; i++) await emit(app, scope, 'order.routed', orderData());
    const res = await get(t.liveKey, '');
    expect(res.body.data).toHaveLength(50);
    expect(res.body.has_more).toBe(true);
    expect((await get(t.liveKey, '?limit=100')).body.data).toHaveLength(55);
    for (const bad of ['0', '101', 'ten', '2.5']) {
      const r = await get(t.liveKey, `?limit=${bad}`);
      expectEnvelope(r, 400, 'validation_error');
      expect(r.body.error.param).toBe('limit');
    }
  });

  it('rejects an unknown type filter with 400', async () => {
    const res = await get(a.sandboxKey, '?type=order.teleported');
    expectEnvelope(res, 400, 'validation_error', 'unknown_event_type');
    expect(res.body.error.param).toBe('type');
  });

  it('sees only its own tenant and mode', async () => {
    const mine = await emit(app, sandbox(), 'order.routed', orderData());
    const live = await emit(app, { tenantId: a.tenantId, livemode: true }, 'order.routed', orderData());
    const theirs = await emit(app, { tenantId: b.tenantId, livemode: false }, 'order.routed', orderData());
    const ids = (await get(a.sandboxKey, '?limit=100')).body.data.map((e: { id: string }) => e.id);
    expect(ids).toContain(mine.id);
    expect(ids).not.toContain(live.id);
    expect(ids).not.toContain(theirs.id);
  });
});

describe('GET /developer/events/{id}', () => {
  it('returns the event; another tenant’s, the other mode’s or an unknown id is 404', async () => {
    const event = await emit(app, sandbox(), 'order.rejected', { ...orderData(), status: 'rejected', reasonCode: 'out_of_stock' });
    const res = await get(a.sandboxKey, `/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: event.id, type: 'order.rejected', data: event.data, createdAt: event.createdAt.toISOString() });
    expect(Object.keys(res.body.data).sort()).toEqual(['orderId', 'pharmacyConnectionId', 'reasonCode', 'status']);
    expectEnvelope(await get(b.sandboxKey, `/${event.id}`), 404, 'not_found');
    expectEnvelope(await get(a.liveKey, `/${event.id}`), 404, 'not_found');
    expectEnvelope(await get(a.sandboxKey, '/evt_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
  });
});

describe('POST /developer/events/{id}/replay', () => {
  const replay = (key: string, id: string, body?: unknown) => app.request('POST', `/v1/developer/events/${id}/replay`, { key, body });

  it('counts the enabled subscribed endpoints, or says why nothing was replayed', async () => {
    const t = await createTenantWithKeys(app, 'Replays');
    const scope = { tenantId: t.tenantId, livemode: false };
    const event = await emit(app, scope, 'order.routed', orderData());
    const none = await replay(t.sandboxKey, event.id);
    expect(none.status).toBe(201);
    expect(none.body.replayedTo).toBe(0);
    expect(none.body.note).toMatch(/no enabled webhook endpoint/i);

    const mk = (body: object) => app.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: 'https://hooks.replays.example/x', ...body } });
    const all = await mk({});
    const routed = await mk({ events: ['order.routed'] });
    const other = await mk({ events: ['order.shipped'] });
    const off = await mk({});
    await app.request('PATCH', `/v1/developer/webhooks/${off.body.id}`, { key: t.sandboxKey, body: { status: 'disabled' } });
    const jobsBefore = await countRows(app, 'jobs');
    expect((await replay(t.sandboxKey, event.id)).body).toEqual({ replayedTo: 2 });
    expect(await countRows(app, 'jobs')).toBe(jobsBefore + 2);
    expect((await replay(t.sandboxKey, event.id, { endpointId: routed.body.id })).body).toEqual({ replayedTo: 1 });
    expect((await replay(t.sandboxKey, event.id, { endpointId: all.body.id })).body).toEqual({ replayedTo: 1 });
    const unsubscribed = await replay(t.sandboxKey, event.id, { endpointId: other.body.id });
    expect(unsubscribed.body.replayedTo).toBe(0);
    expect(unsubscribed.body.note).toMatch(/not subscribed/);
    const disabled = await replay(t.sandboxKey, event.id, { endpointId: off.body.id });
    expect(disabled.body.replayedTo).toBe(0);
    expect(disabled.body.note).toMatch(/disabled/);
  });

  // Issue 20: the console's replay (a Next.js action, on the other drizzle copy) answered 500 "A scoped
  // statement must filter by tenant: insert into webhook_deliveries" while the same replay over /v1 worked.
  it('replays when the database handle comes from another copy of drizzle-orm, as the console’s does', async () => {
    const t = await createTenantWithKeys(app, 'Console replays');
    const event = await emit(app, { tenantId: t.tenantId, livemode: false }, 'order.routed', orderData());
    await app.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: 'https://hooks.console.example/x' } });
    const before = await countRows(app, 'webhook_deliveries');
    const res = await withSecondDrizzleCopy(app, () => replay(t.sandboxKey, event.id));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ replayedTo: 1 });
    expect(await countRows(app, 'webhook_deliveries')).toBe(before + 1);
    const { sql } = await import('drizzle-orm');
    const rows = (await app.services.database.db.execute(sql`select tenant_id, livemode, trigger from webhook_deliveries where event_id = ${event.id} and trigger = 'replay'`)) as unknown as { rows: unknown[] };
    expect(rows.rows).toEqual([{ tenant_id: t.tenantId, livemode: false, trigger: 'replay' }]);
  });

  it('answers 404 for unknown or foreign events and endpoints, and 400 for a bad body, writing nothing', async () => {
    const event = await emit(app, sandbox(), 'order.routed', orderData());
    const foreignEndpoint = await app.request('POST', '/v1/developer/webhooks', { key: b.sandboxKey, body: { url: 'https://hooks.b.example/x' } });
    const before = await countRows(app, 'jobs');
    expectEnvelope(await replay(b.sandboxKey, event.id), 404, 'not_found');
    expectEnvelope(await replay(a.liveKey, event.id), 404, 'not_found');
    expectEnvelope(await replay(a.sandboxKey, 'evt_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
    expectEnvelope(await replay(a.sandboxKey, event.id, { endpointId: foreignEndpoint.body.id }), 404, 'not_found');
    const bad = await replay(a.sandboxKey, event.id, { endpoint: 'we_x' });
    expectEnvelope(bad, 400, 'validation_error', 'unknown_parameter');
    expectEnvelope(await replay(a.sandboxKey, event.id, { endpointId: 42 }), 400, 'validation_error');
    expect(await countRows(app, 'jobs')).toBe(before);
  });
});

describe('who may read the event log', () => {
  it('refuses user sessions (403) and keys without events.read (403)', async () => {
    const event = await emit(app, sandbox(), 'order.routed', orderData());
    const dev = await createUserAndLogin(app, a.tenantId, { email: 'dev@events-a.test', role: 'developer' });
    for (const res of [
      await get(dev.token, ''),
      await get(dev.token, `/${event.id}`),
      await app.request('POST', `/v1/developer/events/${event.id}/replay`, { key: dev.token }),
    ]) expectEnvelope(res, 403, 'permission_error', 'api_key_required');
    const r = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'wh', keyType: 'restricted', scopes: ['webhooks.manage'] } });
    expectEnvelope(await get(r.body.key, ''), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await get('nk_sandbox_nope', ''), 401, 'authentication_error');
  });
});

describe('usage counters', () => {
  it('count enabled endpoints and this month’s events per tenant and mode', async () => {
    const t = await createTenantWithKeys(app, 'Usage');
    const scope = { tenantId: t.tenantId, livemode: false };
    const db = app.services.database.db;
    expect(await countEnabledWebhookEndpoints(db, scope)).toBe(0);
    const one = await app.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: 'https://hooks.usage.example/1' } });
    await app.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: 'https://hooks.usage.example/2' } });
    await app.request('PATCH', `/v1/developer/webhooks/${one.body.id}`, { key: t.sandboxKey, body: { status: 'disabled' } });
    expect(await countEnabledWebhookEndpoints(db, scope)).toBe(1);
    await emit(app, scope, 'order.routed', orderData());
    await emit(app, scope, 'order.routed', orderData());
    expect(await countEventsThisPeriod(db, scope)).toBe(2);
    expect(await countEventsThisPeriod(db, { ...scope, livemode: true })).toBe(0);
    expect(await countEventsThisPeriod(db, scope, new Date(Date.now() + 40 * 86_400_000))).toBe(0);
  });
});
