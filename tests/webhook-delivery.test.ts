import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { emit, jobsDone, orderData, startReceiver, TEST_TIMEOUT_MS, waitFor, type Receiver } from './helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS });

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', WEBHOOK_RETRY_SCHEDULE: '0,300ms,300ms', WORKER_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '1000', WORKER_LEASE_MS: '5000' });
});
afterAll(async () => app?.close());

let scopeN = 0;
/** Each test gets its own tenant, so endpoints and receivers of other tests never interfere. */
async function fresh(respond?: Receiver['respond'], events: string[] = []) {
  const tenant = await createTenantWithKeys(app, `Clinic ${++scopeN}`);
  const receiver = await startReceiver(respond);
  const ep = await app.request('POST', '/v1/developer/webhooks', { key: tenant.sandboxKey, body: { url: `${receiver.url}/hook`, events } });
  expect(ep.status).toBe(201);
  return { tenant, receiver, endpoint: ep.body as { id: string; secret: string }, scope: { tenantId: tenant.tenantId, livemode: false } };
}
/**
 * A second endpoint of the clinic, subscribed to every type: a delivery reaching it marks how far the worker
 * has got, for a test that proves another endpoint was passed over.
 */
async function witness(key: string) {
  const rx = await startReceiver();
  const ep = await app.request('POST', '/v1/developer/webhooks', { key, body: { url: `${rx.url}/witness` } });
  expect(ep.status).toBe(201);
  return rx;
}
const deliveredTo = (rx: Receiver, eventId: string) => rx.received.some((r) => r.headers['webhook-id'] === eventId);
const deliveries = (key: string, id: string) => app.request('GET', `/v1/developer/webhooks/${id}/deliveries`, { key }).then((r) => r.body);
const headersOf = (r: Receiver['received'][number]) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

describe('signed deliveries', () => {
  it('verify with standardwebhooks and svix; a one-byte change or another secret is rejected', async () => {
    const { tenant, receiver, endpoint, scope } = await fresh();
    const event = await emit(app, scope, 'order.routed', orderData());
    const [got] = await waitFor(() => receiver.received.length === 1 && receiver.received, { what: 'the delivery of order.routed' });
    const headers = headersOf(got);
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const logged = await app.request('GET', `/v1/developer/events/${event.id}`, { key: tenant.sandboxKey });
    expect(JSON.parse(got.body)).toEqual(logged.body);
    expect(Object.keys(JSON.parse(got.body)).sort()).toEqual(['createdAt', 'data', 'id', 'type']);

    expect(new StandardWebhook(endpoint.secret).verify(got.body, headers)).toEqual(logged.body);
    expect(new SvixWebhook(endpoint.secret).verify(got.body, headers)).toEqual(logged.body);
    const altered = got.body.replace('"order.routed"', '"order.routeD"');
    expect(altered.length).toBe(got.body.length);
    expect(() => new StandardWebhook(endpoint.secret).verify(altered, headers)).toThrow();
    expect(() => new SvixWebhook(endpoint.secret).verify(altered, headers)).toThrow();

    // Rotation by replacement: a new endpoint gets a new secret; the retired one verifies nothing new.
    await app.request('DELETE', `/v1/developer/webhooks/${endpoint.id}`, { key: tenant.sandboxKey });
    const next = await app.request('POST', '/v1/developer/webhooks', { key: tenant.sandboxKey, body: { url: `${receiver.url}/hook` } });
    await emit(app, scope, 'order.shipped', orderData('accepted'));
    const second = await waitFor(() => receiver.received[1], { what: 'the delivery of order.shipped to the new endpoint' });
    expect(new SvixWebhook(next.body.secret).verify(second.body, headersOf(second))).toBeTruthy();
    expect(() => new StandardWebhook(endpoint.secret).verify(second.body, headersOf(second))).toThrow();
    expect(() => new SvixWebhook(endpoint.secret).verify(second.body, headersOf(second))).toThrow();
    await receiver.close();
  });

  it('records the delivery and shows it as lastDelivery', async () => {
    const { tenant, receiver, endpoint, scope } = await fresh();
    const event = await emit(app, scope, 'order.submitted', orderData('accepted'));
    const [d] = await waitFor(
      async () => {
        const list = await deliveries(tenant.sandboxKey, endpoint.id);
        return list[0]?.status === 'delivered' && list;
      },
      { what: 'the delivery to be listed as delivered' },
    );
    expect(Object.keys(d).sort()).toEqual(
      ['attempts', 'createdAt', 'deliveredAt', 'eventId', 'eventType', 'id', 'lastError', 'nextAttemptAt', 'responseCode', 'status'].sort(),
    );
    expect(d).toMatchObject({ eventId: event.id, eventType: 'order.submitted', attempts: 1, responseCode: 200, lastError: null });
    expect(d.id).toMatch(/^whd_/);
    const listed = (await app.request('GET', '/v1/developer/webhooks', { key: tenant.sandboxKey })).body[0];
    expect(listed.lastDelivery).toMatchObject({ eventType: 'order.submitted', status: 'delivered', responseCode: 200 });
    await receiver.close();
  });

  it('sends every type to an endpoint with events [] and only its types to a subscribed one', async () => {
    const { tenant, receiver, scope } = await fresh();
    const picky = await startReceiver();
    const pickyEp = await app.request('POST', '/v1/developer/webhooks', { key: tenant.sandboxKey, body: { url: `${picky.url}/p`, events: ['order.shipped'] } });
    await emit(app, scope, 'order.routed', orderData());
    await emit(app, scope, 'order.shipped', orderData('accepted'));
    await emit(app, scope, 'flow.checkout.completed', { flowId: 'flw_01h2xcejqtf2nbrexx3vqjhp41', sessionId: 'fs_01h2xcejqtf2nbrexx3vqjhp41', externalOrderId: 'shop-1001' });
    await waitFor(() => receiver.received.length === 3, { what: 'three deliveries to the endpoint of every type' });
    // Each event's deliveries were written with it; once the worker has run every job, nothing more can reach picky.
    await jobsDone(app, { tenantId: tenant.tenantId });
    expect(picky.received.map((r) => JSON.parse(r.body).type)).toEqual(['order.shipped']);
    expect((await deliveries(tenant.sandboxKey, pickyEp.body.id)).map((d: { eventType: string }) => d.eventType)).toEqual(['order.shipped']);
    await Promise.all([receiver.close(), picky.close()]);
  });
});

describe('retries', () => {
  it('retries a failing receiver on the schedule with the same webhook-id, then succeeds', async () => {
    const { tenant, receiver, endpoint, scope } = await fresh((_r, n) => (n < 3 ? { status: 500 } : undefined));
    const event = await emit(app, scope, 'order.routed', orderData());
    await waitFor(() => receiver.received.length === 3, { what: 'three attempts' });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
    expect(receiver.received[1].at - receiver.received[0].at).toBeGreaterThanOrEqual(250);
    const [d] = await waitFor(
      async () => {
        const list = await deliveries(tenant.sandboxKey, endpoint.id);
        return list[0]?.status === 'delivered' && list;
      },
      { what: 'the delivery to be listed as delivered' },
    );
    expect(d).toMatchObject({ attempts: 3, responseCode: 200, lastError: null });
    await receiver.close();
  });

  it('honours Retry-After', async () => {
    const { receiver, scope } = await fresh((_r, n) => (n === 1 ? { status: 503, headers: { 'Retry-After': '1' } } : undefined));
    await emit(app, scope, 'order.routed', orderData());
    await waitFor(() => receiver.received.length === 2, { what: 'the retry after Retry-After' });
    expect(receiver.received[1].at - receiver.received[0].at).toBeGreaterThanOrEqual(950);
    await receiver.close();
  });

  it('marks a delivery dead once the schedule is exhausted', async () => {
    const { tenant, receiver, endpoint, scope } = await fresh(() => ({ status: 500 }));
    await emit(app, scope, 'order.routed', orderData());
    const [d] = await waitFor(
      async () => {
        const list = await deliveries(tenant.sandboxKey, endpoint.id);
        return list[0]?.status === 'dead' && list;
      },
      { what: 'the delivery to be listed as dead' },
    );
    expect(d).toMatchObject({ attempts: 3, responseCode: 500, lastError: 'HTTP 500', deliveredAt: null });
    // The worker has finished the delivery's job: no attempt can follow.
    await jobsDone(app, { tenantId: tenant.tenantId });
    expect(receiver.received).toHaveLength(3);
    await receiver.close();
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const { tenant, receiver, endpoint } = await fresh(() => ({ status: 302, headers: { Location: 'http://localhost:1/elsewhere' } }));
    const res = await app.request('POST', `/v1/developer/webhooks/${endpoint.id}/test`, { key: tenant.sandboxKey });
    expect(res.body).toMatchObject({ status: 'failed', responseCode: 302 });
    expect(res.body.lastError).toMatch(/redirect/);
    expect(receiver.received).toHaveLength(1);
    await receiver.close();
  });

  it('gives up on a receiver slower than the timeout', async () => {
    const { tenant, receiver, endpoint } = await fresh(() => ({ delayMs: 1500 }));
    const res = await app.request('POST', `/v1/developer/webhooks/${endpoint.id}/test`, { key: tenant.sandboxKey });
    expect(res.body).toMatchObject({ status: 'failed', responseCode: null });
    expect(res.body.lastError).toMatch(/Timed out/);
    await receiver.close();
  });
});

describe('disabled endpoints', () => {
  it('410 Gone disables the endpoint, which then receives nothing and keeps its secret', async () => {
    const { tenant, receiver, endpoint, scope } = await fresh(() => ({ status: 410 }));
    await emit(app, scope, 'order.routed', orderData());
    const ep = await waitFor(
      async () => {
        const list = (await app.request('GET', '/v1/developer/webhooks', { key: tenant.sandboxKey })).body;
        return list[0]?.status === 'disabled' && list[0];
      },
      { what: 'the 410 to disable the endpoint' },
    );
    expect(ep.secretHint.endsWith(endpoint.secret.slice(-4))).toBe(true);
    expect((await deliveries(tenant.sandboxKey, endpoint.id))[0]).toMatchObject({ status: 'dead', responseCode: 410, attempts: 1 });
    const other = await witness(tenant.sandboxKey);
    const next = await emit(app, scope, 'order.routed', orderData());
    // The next event has reached the clinic's other endpoint and the worker has run every job: the disabled one was passed over.
    await waitFor(() => deliveredTo(other, next.id), { what: 'the next event at the clinic’s other endpoint' });
    await jobsDone(app, { tenantId: tenant.tenantId });
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries(tenant.sandboxKey, endpoint.id)).toHaveLength(1);
    await Promise.all([receiver.close(), other.close()]);
  });

  it('a disabled endpoint receives nothing; re-enabled, it signs with the same secret', async () => {
    const { tenant, receiver, endpoint, scope } = await fresh();
    const other = await witness(tenant.sandboxKey);
    await app.request('PATCH', `/v1/developer/webhooks/${endpoint.id}`, { key: tenant.sandboxKey, body: { status: 'disabled' } });
    const missed = await emit(app, scope, 'order.routed', orderData());
    const test = await app.request('POST', `/v1/developer/webhooks/${endpoint.id}/test`, { key: tenant.sandboxKey });
    expectEnvelope(test, 409, 'conflict', 'endpoint_disabled');
    // The event has reached the clinic's other endpoint and the worker has run every job: the disabled one was passed over.
    await waitFor(() => deliveredTo(other, missed.id), { what: 'the event at the clinic’s other endpoint' });
    await jobsDone(app, { tenantId: tenant.tenantId });
    expect(receiver.received).toHaveLength(0);
    expect(await deliveries(tenant.sandboxKey, endpoint.id)).toEqual([]);
    await app.request('PATCH', `/v1/developer/webhooks/${endpoint.id}`, { key: tenant.sandboxKey, body: { status: 'enabled' } });
    const next = await emit(app, scope, 'order.routed', orderData());
    const got = await waitFor(() => receiver.received[0], { what: 'a delivery to the re-enabled endpoint' });
    // The event emitted while it was disabled never follows.
    expect(got.headers['webhook-id']).toBe(next.id);
    expect(new StandardWebhook(endpoint.secret).verify(got.body, headersOf(got))).toBeTruthy();
    await jobsDone(app, { tenantId: tenant.tenantId });
    expect(receiver.received).toHaveLength(1);
    await Promise.all([receiver.close(), other.close()]);
  });
});

describe('POST /developer/webhooks/{id}/test', () => {
  it('sends a synthetic signed PHI-free event and reports the live result', async () => {
    const { tenant, receiver, endpoint } = await fresh();
    const res = await app.request('POST', `/v1/developer/webhooks/${endpoint.id}/test`, { key: tenant.sandboxKey });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ status: 'delivered', responseCode: 200, lastError: null });
    const got = receiver.received[0];
    const body = new SvixWebhook(endpoint.secret).verify(got.body, headersOf(got)) as { type: string; data: unknown; id: string };
    expect(body.type).toBe('webhook.test');
    expect(body.data).toEqual({ endpointId: endpoint.id });
    expect((await deliveries(tenant.sandboxKey, endpoint.id))[0]).toMatchObject({ eventId: body.id, eventType: 'webhook.test', status: 'delivered' });
    const log = await app.request('GET', '/v1/developer/events', { key: tenant.sandboxKey });
    expect(log.body.data).toEqual([]);
    receiver.respond = () => ({ status: 500 });
    const failed = await app.request('POST', `/v1/developer/webhooks/${endpoint.id}/test`, { key: tenant.sandboxKey });
    expect(failed.body).toEqual({ status: 'failed', responseCode: 500, lastError: 'HTTP 500' });
    await receiver.close();
  });
});

describe('replay', () => {
  it('re-delivers with the same webhook-id; each replay is its own delivery', async () => {
    const { tenant, receiver, endpoint, scope } = await fresh();
    const event = await emit(app, scope, 'order.delivered', orderData('accepted'));
    await waitFor(() => receiver.received.length === 1, { what: 'the first delivery of order.delivered' });
    const res = await app.request('POST', `/v1/developer/events/${event.id}/replay`, { key: tenant.sandboxKey });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ replayedTo: 1 });
    await waitFor(() => receiver.received.length === 2, { what: 'the replayed delivery' });
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([event.id, event.id]);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    expect((await deliveries(tenant.sandboxKey, endpoint.id)).map((d: { eventId: string }) => d.eventId)).toEqual([event.id, event.id]);
    await receiver.close();
  });
});
