import dns from 'node:dns';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { events, webhookDeliveries } from '@/db/schema';
import { setClock } from '@/server/lib/clock';
import { createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { emit, orderData, startReceiver, TEST_TIMEOUT_MS, waitFor } from './helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS });

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50', WORKER_MAINTENANCE_MS: '200', WEBHOOK_RETRY_SCHEDULE: '0' });
});
afterAll(async () => app?.close());
afterEach(() => {
  setClock(null);
  vi.restoreAllMocks();
});

const countWhere = async (table: typeof events | typeof webhookDeliveries, where: ReturnType<typeof eq>) =>
  Number((await app.services.database.db.select({ n: count() }).from(table).where(where))[0].n);

describe('delivery history', () => {
  it('keeps the newest 50 deliveries per endpoint and every event', async () => {
    const t = await createTenantWithKeys(app, 'Busy');
    const scope = { tenantId: t.tenantId, livemode: false };
    const rx = await startReceiver();
    const ep = await app.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: `${rx.url}/h` } });
    const emitted = [];
    for (let i = 0; i < 60; i++) emitted.push(await emit(app, scope, 'order.routed', orderData()));
    await waitFor(() => new Set(rx.received.map((r) => r.headers['webhook-id'])).size === 60, { what: '60 deliveries' });
    await waitFor(async () => (await countWhere(webhookDeliveries, eq(webhookDeliveries.endpointId, ep.body.id))) === 50, {
      what: 'maintenance to cut the endpoint’s history to 50 deliveries',
    });
    const listed = await app.request('GET', `/v1/developer/webhooks/${ep.body.id}/deliveries`, { key: t.sandboxKey });
    expect(listed.body).toHaveLength(50);
    expect(listed.body.map((d: { eventId: string }) => d.eventId)).toEqual(emitted.slice(10).map((e) => e.id).reverse());
    expect(await countWhere(events, and(eq(events.tenantId, t.tenantId), eq(events.livemode, false))!)).toBe(60);
    expect((await app.request('GET', `/v1/developer/events/${emitted[0].id}`, { key: t.sandboxKey })).status).toBe(200);
    await rx.close();
  });
});

describe('event retention', () => {
  it('keeps events 30 days and prunes older ones', async () => {
    const t = await createTenantWithKeys(app, 'Old');
    const scope = { tenantId: t.tenantId, livemode: true };
    const old = await emit(app, scope, 'order.routed', orderData());
    // Days counted from the event's own time, not from a reading of the wall clock around it.
    const start = old.createdAt.getTime();
    setClock(() => new Date(start + 29 * 86_400_000));
    await app.worker!.runMaintenance();
    expect((await app.request('GET', `/v1/developer/events/${old.id}`, { key: t.liveKey })).status).toBe(200);
    setClock(() => new Date(start + 31 * 86_400_000));
    const recent = await emit(app, scope, 'order.routed', orderData());
    await app.worker!.runMaintenance();
    expectEnvelope(await app.request('GET', `/v1/developer/events/${old.id}`, { key: t.liveKey }), 404, 'not_found');
    expect((await app.request('GET', `/v1/developer/events/${recent.id}`, { key: t.liveKey })).status).toBe(200);
  });

  it('refuses a retention under 30 days at start', async () => {
    await expect(startTestApp({ EVENT_RETENTION_DAYS: '7' })).rejects.toThrow(/EVENT_RETENTION_DAYS/);
  });
});

describe('DNS pinning', () => {
  it('checks the address again at delivery, so a name rebound to an inside address is never reached', async () => {
    const t = await createTenantWithKeys(app, 'Rebind');
    const lookup = vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '93.184.216.34', family: 4 }] as never);
    const ep = await app.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: 'https://rebind.clinic.example/hook' } });
    expect(ep.status).toBe(201);
    for (const inside of ['127.0.0.1', '169.254.169.254', '::ffff:10.0.0.1', 'fd00::1']) {
      lookup.mockResolvedValue([{ address: inside, family: inside.includes(':') ? 6 : 4 }] as never);
      const res = await app.request('POST', `/v1/developer/webhooks/${ep.body.id}/test`, { key: t.sandboxKey });
      expect(res.body).toMatchObject({ status: 'failed', responseCode: null });
      expect(res.body.lastError).toMatch(/private, loopback, link-local, reserved or metadata/);
    }
  });
});
