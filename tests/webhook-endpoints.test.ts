import dns from 'node:dns';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Clinic, countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, startWithTwoClinics, type TestApp } from './helpers/harness';
import { EVENT_TYPES } from '@/server/domain/events/catalog';

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());
afterEach(() => vi.restoreAllMocks());

const create = (key: string, body: unknown) => app.request('POST', '/v1/developer/webhooks', { key, body });
const list = (key: string) => app.request('GET', '/v1/developer/webhooks', { key });
const patch = (key: string, id: string, body: unknown) => app.request('PATCH', `/v1/developer/webhooks/${id}`, { key, body });
const URL_OK = 'https://hooks.clinic-a.example/fr';

describe('GET /developer/webhooks/events', () => {
  it('lists every event type of the spec, in its order', async () => {
    const res = await app.request('GET', '/v1/developer/webhooks/events', { key: a.sandboxKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      'order.routed', 'order.submitted', 'order.rejected', 'order.shipped', 'order.delivered', 'order.cancelled', 'intake.submission.created',
      'flow.viewed', 'step.completed', 'flow.qualified', 'flow.disqualified', 'experiment.exposed', 'flow.published',
      'flow.session.qualified', 'flow.session.completed', 'flow.checkout.completed',
    ]);
    expect(res.body).toEqual(EVENT_TYPES);
  });
});

describe('POST /developer/webhooks', () => {
  it('creates an enabled endpoint and shows its whsec_ secret once', async () => {
    const res = await create(a.sandboxKey, { url: URL_OK, events: ['order.routed', 'order.shipped'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ url: URL_OK, events: ['order.routed', 'order.shipped'], status: 'enabled' });
    expect(res.body.id).toMatch(/^we_/);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
    const listed = await list(a.sandboxKey);
    expect(listed.text).not.toContain(res.body.secret);
    const mine = listed.body.find((e: { id: string }) => e.id === res.body.id);
    expect(Object.keys(mine).sort()).toEqual(['createdAt', 'description', 'events', 'id', 'lastDelivery', 'secretHint', 'status', 'url']);
    expect(mine.secretHint.endsWith(res.body.secret.slice(-4))).toBe(true);
    expect(mine.lastDelivery).toBeNull();
  });

  it('defaults events to [] (every type) and lists oldest first', async () => {
    const first = await create(b.liveKey, { url: `${URL_OK}/1` });
    const second = await create(b.liveKey, { url: `${URL_OK}/2` });
    expect(first.body.events).toEqual([]);
    const ids = (await list(b.liveKey)).body.map((e: { id: string }) => e.id);
    expect(ids.indexOf(first.body.id)).toBeLessThan(ids.indexOf(second.body.id));
  });

  it('rejects unknown event types with 400 and writes nothing', async () => {
    const before = await countRows(app, 'webhook_endpoints');
    const res = await create(a.sandboxKey, { url: URL_OK, events: ['order.routed', 'order.teleported'] });
    expectEnvelope(res, 400, 'validation_error', 'unknown_event_type');
    expect(res.body.error.param).toBe('events');
    expect(await countRows(app, 'webhook_endpoints')).toBe(before);
  });

  it.each([
    ['not a url', 'invalid_url'],
    ['ftp://hooks.example.com/x', 'url_not_https'],
    ['http://hooks.example.com/x', 'url_not_https'],
    ['https://127.0.0.1/x', 'url_forbidden_host'],
    ['https://10.1.2.3/x', 'url_forbidden_host'],
    ['https://172.16.0.9/x', 'url_forbidden_host'],
    ['https://192.168.0.1/x', 'url_forbidden_host'],
    ['https://169.254.169.254/latest/meta-data/', 'url_forbidden_host'],
    ['https://100.64.0.1/x', 'url_forbidden_host'],
    ['https://0.0.0.0/x', 'url_forbidden_host'],
    ['https://240.0.0.1/x', 'url_forbidden_host'],
    ['https://2130706433/x', 'url_forbidden_host'],
    ['https://0x7f.1/x', 'url_forbidden_host'],
    ['https://[::1]/x', 'url_forbidden_host'],
    ['https://[::]/x', 'url_forbidden_host'],
    ['https://[fe80::1]/x', 'url_forbidden_host'],
    ['https://[fd00:ec2::254]/x', 'url_forbidden_host'],
    ['https://[::ffff:127.0.0.1]/x', 'url_forbidden_host'],
    ['https://[::ffff:169.254.169.254]/x', 'url_forbidden_host'],
    ['https://[::ffff:10.0.0.1]/x', 'url_forbidden_host'],
    ['https://[64:ff9b::a00:1]/x', 'url_forbidden_host'],
    ['https://metadata.google.internal/computeMetadata/v1/', 'url_forbidden_host'],
    ['https://printer.local/x', 'url_forbidden_host'],
    ['https://localhost.localdomain/x', 'url_forbidden_host'],
  ])('rejects %s with 400 (%s), names url, echoes nothing and writes nothing', async (url, code) => {
    const before = await countRows(app, 'webhook_endpoints');
    const res = await create(a.sandboxKey, { url });
    expectEnvelope(res, 400, 'validation_error', code);
    expect(res.body.error.param).toBe('url');
    expect(res.text).not.toContain(url);
    expect(await countRows(app, 'webhook_endpoints')).toBe(before);
  });

  it('rejects a host name that resolves to a private address', async () => {
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '10.0.0.7', family: 4 }] as never);
    const res = await create(a.sandboxKey, { url: 'https://intranet.clinic-a.example/hook' });
    expectEnvelope(res, 400, 'validation_error', 'url_forbidden_host');
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '93.184.216.34', family: 4 }, { address: '::ffff:192.168.1.1', family: 6 }] as never);
    expectEnvelope(await create(a.sandboxKey, { url: 'https://mixed.clinic-a.example/hook' }), 400, 'validation_error', 'url_forbidden_host');
  });

  it('allows http only for localhost, and only while WEBHOOKS_ALLOW_LOCALHOST is on', async () => {
    expect((await create(a.sandboxKey, { url: 'http://localhost:4100/hook' })).status).toBe(201);
    const strict = await startTestApp({ WEBHOOKS_ALLOW_LOCALHOST: 'false' });
    try {
      const t = await createTenantWithKeys(strict);
      const res = await strict.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: 'http://localhost:4100/hook' } });
      expectEnvelope(res, 400, 'validation_error', 'url_not_https');
      const https = await strict.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: 'https://localhost/hook' } });
      expectEnvelope(https, 400, 'validation_error', 'url_forbidden_host');
      expect(await countRows(strict, 'webhook_endpoints')).toBe(0);
    } finally {
      await strict.close();
    }
  });

  it('validates the body shape', async () => {
    const missing = await create(a.sandboxKey, {});
    expectEnvelope(missing, 400, 'validation_error');
    expect(missing.body.error.param).toBe('url');
    expectEnvelope(await create(a.sandboxKey, { url: URL_OK, colour: 'red' }), 400, 'validation_error', 'unknown_parameter');
    expectEnvelope(await create(a.sandboxKey, { url: URL_OK, events: 'order.routed' }), 400, 'validation_error');
  });

  it('needs the webhooks.manage scope', async () => {
    const r = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'ro', keyType: 'restricted', scopes: ['orders.read'] } });
    expectEnvelope(await create(r.body.key, { url: URL_OK }), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await list(r.body.key), 403, 'permission_error', 'missing_scope');
  });

  it('is available to a developer’s user session as well as to API keys', async () => {
    const dev = await createUserAndLogin(app, a.tenantId, { email: 'dev@clinic-a.test', role: 'developer' });
    expect((await list(dev.token)).status).toBe(200);
  });
});

describe('PATCH /developer/webhooks/{id}', () => {
  it('changes only the fields sent', async () => {
    const made = await create(a.sandboxKey, { url: URL_OK, events: ['order.routed'] });
    const res = await patch(a.sandboxKey, made.body.id, { events: ['order.rejected'] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: made.body.id, url: URL_OK, events: ['order.rejected'], status: 'enabled' });
    expect(res.body.secret).toBeUndefined();
    const disabled = await patch(a.sandboxKey, made.body.id, { status: 'disabled' });
    expect(disabled.body).toMatchObject({ events: ['order.rejected'], status: 'disabled', secretHint: res.body.secretHint });
    const moved = await patch(a.sandboxKey, made.body.id, { url: `${URL_OK}/v2`, status: 'enabled' });
    expect(moved.body).toMatchObject({ url: `${URL_OK}/v2`, status: 'enabled', secretHint: res.body.secretHint });
    expect((await patch(a.sandboxKey, made.body.id, {})).body).toEqual(moved.body);
  });

  it('applies the URL rules and leaves the endpoint unchanged on a bad value', async () => {
    const made = await create(a.sandboxKey, { url: URL_OK });
    for (const url of ['http://hooks.example.com', 'https://[::ffff:169.254.169.254]/', 'https://192.168.10.1/']) {
      const res = await patch(a.sandboxKey, made.body.id, { url });
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe('url');
    }
    expectEnvelope(await patch(a.sandboxKey, made.body.id, { events: ['nope'] }), 400, 'validation_error', 'unknown_event_type');
    expectEnvelope(await patch(a.sandboxKey, made.body.id, { status: 'paused' }), 400, 'validation_error');
    expectEnvelope(await patch(a.sandboxKey, made.body.id, { secret: 'whsec_x' }), 400, 'validation_error', 'unknown_parameter');
    const now = (await list(a.sandboxKey)).body.find((e: { id: string }) => e.id === made.body.id);
    expect(now).toMatchObject({ url: URL_OK, events: [], status: 'enabled' });
  });
});

describe('DELETE /developer/webhooks/{id}', () => {
  it('removes the endpoint for good and returns a DeleteResult', async () => {
    const made = await create(a.sandboxKey, { url: URL_OK });
    const res = await app.request('DELETE', `/v1/developer/webhooks/${made.body.id}`, { key: a.sandboxKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: made.body.id });
    expect((await list(a.sandboxKey)).body.map((e: { id: string }) => e.id)).not.toContain(made.body.id);
    expectEnvelope(await app.request('DELETE', `/v1/developer/webhooks/${made.body.id}`, { key: a.sandboxKey }), 404, 'not_found');
  });
});

describe('other tenants and modes', () => {
  it('answers 404 for another tenant’s or the other mode’s endpoint on every {id} route', async () => {
    const theirs = await create(b.sandboxKey, { url: URL_OK });
    const live = await create(a.liveKey, { url: URL_OK });
    for (const [key, id] of [[a.sandboxKey, theirs.body.id], [a.sandboxKey, live.body.id], [a.liveKey, 'we_01jzzzzzzzzzzzzzzzzzzzzzzz']]) {
      expectEnvelope(await patch(key, id, { status: 'disabled' }), 404, 'not_found');
      expectEnvelope(await app.request('DELETE', `/v1/developer/webhooks/${id}`, { key }), 404, 'not_found');
      expectEnvelope(await app.request('POST', `/v1/developer/webhooks/${id}/test`, { key }), 404, 'not_found');
      expectEnvelope(await app.request('GET', `/v1/developer/webhooks/${id}/deliveries`, { key }), 404, 'not_found');
    }
    expect((await list(a.sandboxKey)).body.map((e: { id: string }) => e.id)).not.toContain(live.body.id);
    expect((await list(b.sandboxKey)).body.find((e: { id: string }) => e.id === theirs.body.id).status).toBe('enabled');
  });
});
