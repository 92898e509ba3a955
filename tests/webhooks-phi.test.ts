import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithKeys, OPS_KEY, startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { openStream } from './helpers/sse';
import { emit, orderData, startReceiver, waitFor, type Receiver } from './helpers/webhooks';

const NAME = 'Zelda Quixote-Marsh';
const EMAIL = 'zelda.qm@example.test';
const DOB = '1961-04-17';
const PHI = `${NAME} ${EMAIL} ${DOB}`;
const NEEDLES = [/zelda/i, /quixote/i, /marsh/i, /1961-04-17/, /zelda\.qm/i, /zelda%20/i];

let app: TestApp;
let rx: Receiver;
beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0,100ms' });
  // A receiver that answers with PHI in its body: nothing of it may reach a delivery record.
  rx = await startReceiver((r) => (r.path.includes('fail') ? { status: 500, body: `Unknown patient ${PHI}` } : undefined));
});
afterAll(async () => {
  await app?.close();
  await rx?.close();
});

const assertClean = (what: string, text: string) => {
  for (const n of NEEDLES) expect(text, `${what} leaks ${n}`).not.toMatch(n);
};

describe('PHI never reaches events, deliveries, streams or errors', () => {
  it('plants a patient’s name, e-mail and birth date in every free-text input and finds them nowhere', async () => {
    const t = await createTenantWithKeys(app, PHI);
    const key = t.sandboxKey;
    const errorsSeen: ApiResponse[] = [];
    const expectError = (res: ApiResponse) => {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      errorsSeen.push(res);
    };
    const stream = await openStream(`${app.baseUrl}/v1/developer/events/stream`, key);

    await app.request('POST', `/v1/ops/tenants/${t.tenantId}/users`, {
      key: OPS_KEY,
      body: { email: EMAIL, password: 'correct horse battery staple', name: NAME, role: 'developer' },
    });
    expect((await app.request('POST', '/v1/developer/keys', { key, body: { name: PHI } })).status).toBe(201);
    const path = `/${encodeURIComponent(NAME)}/${EMAIL}?dob=${DOB}&name=${encodeURIComponent(NAME)}`;
    const ok = await app.request('POST', '/v1/developer/webhooks', { key, body: { url: `${rx.url}${path}` } });
    expect(ok.status).toBe(201);
    const failing = await app.request('POST', '/v1/developer/webhooks', { key, body: { url: `${rx.url}/fail${path}` } });

    expectError(await app.request('POST', '/v1/developer/webhooks', { key, body: { url: `http://${EMAIL}/${NAME}?dob=${DOB}` } }));
    expectError(await app.request('POST', '/v1/developer/webhooks', { key, body: { url: `https://169.254.169.254/${NAME}/${DOB}` } }));
    expectError(await app.request('POST', '/v1/developer/webhooks', { key, body: { url: PHI } }));
    expectError(await app.request('POST', '/v1/developer/webhooks', { key, body: { url: `${rx.url}/x`, events: [NAME, EMAIL, DOB] } }));
    expectError(await app.request('PATCH', `/v1/developer/webhooks/${ok.body.id}`, { key, body: { events: [PHI] } }));
    expectError(await app.request('PATCH', `/v1/developer/webhooks/${ok.body.id}`, { key, body: { url: `https://[::ffff:127.0.0.1]/${EMAIL}` } }));
    expectError(await app.request('PATCH', `/v1/developer/webhooks/${encodeURIComponent(PHI)}`, { key, body: { status: 'disabled' } }));
    expectError(await app.request('GET', `/v1/developer/webhooks/${EMAIL}/deliveries`, { key }));
    expectError(await app.request('GET', `/v1/developer/events?type=${encodeURIComponent(PHI)}`, { key }));
    expectError(await app.request('GET', `/v1/developer/events/${EMAIL}`, { key }));
    expectError(await app.request('GET', `/v1/developer/events/stream`, { key, headers: { 'Last-Event-ID': EMAIL } }));
    expectError(await app.request('POST', '/v1/developer/webhooks', { key, body: { url: `${rx.url}/y` }, headers: { 'Idempotency-Key': EMAIL } }));
    const listed = await app.request('GET', `/v1/developer/events?starting_after=${encodeURIComponent(EMAIL)}`, { key });
    assertClean('event list with a PHI cursor', listed.text);

    const scope = { tenantId: t.tenantId, livemode: false };
    const event = await emit(app, scope, 'order.rejected', { ...orderData(), status: 'rejected', reasonCode: 'out_of_stock' });
    await emit(app, scope, 'step.completed', { flowId: 'flw_01h2xcejqtf2nbrexx3vqjhp41', sessionId: 'fs_01h2xcejqtf2nbrexx3vqjhp41', stepId: 'contact' });
    expectError(await app.request('POST', `/v1/developer/events/${event.id}/replay`, { key, body: { endpointId: PHI } }));
    expect((await app.request('POST', `/v1/developer/events/${event.id}/replay`, { key, body: { endpointId: ok.body.id } })).body).toEqual({ replayedTo: 1 });
    expect((await app.request('POST', `/v1/developer/webhooks/${ok.body.id}/test`, { key })).body.status).toBe('delivered');
    await waitFor(() => rx.received.filter((r) => !r.path.includes('fail')).length >= 4, { what: 'deliveries' });
    await waitFor(async () => {
      const d = (await app.request('GET', `/v1/developer/webhooks/${failing.body.id}/deliveries`, { key })).body;
      return d.length === 2 && d.every((x: { status: string }) => x.status === 'dead');
    });
    await stream.waitFor((m) => m.filter((x) => x.data).length >= 2);

    for (const res of errorsSeen) assertClean(`error ${res.status} ${res.body?.error?.code}`, res.text);
    assertClean('event log', (await app.request('GET', '/v1/developer/events?limit=100', { key })).text);
    assertClean('event', (await app.request('GET', `/v1/developer/events/${event.id}`, { key })).text);
    for (const ep of [ok.body.id, failing.body.id]) {
      assertClean('delivery history', (await app.request('GET', `/v1/developer/webhooks/${ep}/deliveries`, { key })).text);
    }
    for (const r of rx.received) {
      assertClean('webhook body', r.body);
      const { host: _host, ...headers } = r.headers;
      assertClean('webhook headers', JSON.stringify(headers));
    }
    assertClean('SSE stream', JSON.stringify(stream.messages));
    await stream.close();
  });
});
