import dns from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { allowLocalhostWebhooks, loadConfig } from '@/server/lib/config';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';

// Issue 20, items 10 and 14: URL forms that slipped past the webhook and pharmacy URL rules, and the
// default and wording of WEBHOOKS_ALLOW_LOCALHOST.

let app: TestApp;
let a: Clinic;
let strict: TestApp;
let s: Clinic;

beforeAll(async () => {
  [app, strict] = await Promise.all([startTestApp(), startTestApp({ WEBHOOKS_ALLOW_LOCALHOST: 'false' })]);
  [a, s] = await Promise.all([createTenantWithKeys(app), createTenantWithKeys(strict)]);
});
afterAll(async () => Promise.all([app?.close(), strict?.close()]));
// No test may depend on the machine's resolver: names resolve to a public address unless a test says otherwise.
beforeEach(() => {
  vi.restoreAllMocks();
  vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '93.184.216.34', family: 4 }] as never);
});

const GOOD = 'https://hooks.clinic.example/fr';
const hook = (t: TestApp, key: string, url: string) => t.request('POST', '/v1/developer/webhooks', { key, body: { url } });
const pharmacy = (t: TestApp, key: string, baseUrl: string) =>
  t.request('POST', '/v1/pharmacies', { key, body: { name: 'P', adapter: 'http', settings: { baseUrl }, states: ['CA'] } });

// IPv6 forms that carry an inside IPv4 (loopback, metadata, private), and names written with a trailing dot.
const EMBEDDED = [
  'https://[::127.0.0.1]/',
  'https://[::a9fe:a9fe]/',
  'https://[::10.0.0.1]/x',
  'https://[::ffff:0:7f00:1]/',
  'https://[64:ff9b::a9fe:a9fe]/',
  'https://[64:ff9b:1::808:808]/',
  'https://[2002:7f00:1::1]/',
  'https://[2002:a9fe:a9fe::1]/',
  'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
];
const DOTTED = ['https://metadata.google.internal./computeMetadata/v1/', 'https://printer.local./', 'https://db.internal../', 'https://a.localhost./'];

describe('embedded IPv4 and trailing dots (item 10)', () => {
  it.each([...EMBEDDED, ...DOTTED])('refuses %s for a webhook endpoint at create and update, writing nothing', async (url) => {
    const before = await countRows(app, 'webhook_endpoints');
    const res = await hook(app, a.sandboxKey, url);
    expectEnvelope(res, 400, 'validation_error', 'url_forbidden_host');
    expect(res.body.error.param).toBe('url');
    expect(await countRows(app, 'webhook_endpoints')).toBe(before);

    const made = await hook(app, a.sandboxKey, GOOD);
    const patched = await app.request('PATCH', `/v1/developer/webhooks/${made.body.id}`, { key: a.sandboxKey, body: { url } });
    expectEnvelope(patched, 400, 'validation_error', 'url_forbidden_host');
    expect(patched.body.error.param).toBe('url');
    const list = await app.request('GET', '/v1/developer/webhooks', { key: a.sandboxKey });
    expect(list.body.find((e: { id: string }) => e.id === made.body.id).url).toBe(GOOD);
  });

  it.each([...EMBEDDED, ...DOTTED])('refuses %s as an http pharmacy base URL at create and update', async (url) => {
    const before = await countRows(app, 'pharmacy_connections');
    const res = await pharmacy(app, a.liveKey, url);
    expectEnvelope(res, 400, 'validation_error', 'url_forbidden_host');
    expect(res.body.error.param).toBe('settings.baseUrl');
    expect(await countRows(app, 'pharmacy_connections')).toBe(before);

    const made = await pharmacy(app, a.liveKey, 'https://pharmacy.example.com/api');
    expect(made.status).toBe(201);
    const patched = await app.request('PATCH', `/v1/pharmacies/${made.body.id}`, { key: a.liveKey, body: { settings: { baseUrl: url } } });
    expectEnvelope(patched, 400, 'validation_error', 'url_forbidden_host');
    expect(patched.body.error.param).toBe('settings.baseUrl');
  });

  it('refuses a host name that resolves to an IPv4-compatible inside address', async () => {
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '::a9fe:a9fe', family: 6 }] as never);
    expectEnvelope(await hook(app, a.sandboxKey, 'https://sneaky.clinic.example/'), 400, 'validation_error', 'url_forbidden_host');
  });

  it('judges NAT64 by the address it carries: a public one is accepted', async () => {
    expect((await hook(app, a.sandboxKey, 'https://[64:ff9b::808:808]/hook')).status).toBe(201);
  });

  it.each(['https://localhost./', 'http://localhost.:4100/hook', 'https://LOCALHOST../'])('treats %s as localhost: refused while localhost is off', async (url) => {
    const res = await hook(strict, s.sandboxKey, url);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.message).toContain('WEBHOOKS_ALLOW_LOCALHOST');
    expectEnvelope(await pharmacy(strict, s.liveKey, url), 400, 'validation_error');
    expect(await countRows(strict, 'webhook_endpoints')).toBe(0);
    expect(await countRows(strict, 'pharmacy_connections')).toBe(0);
  });
});

describe('WEBHOOKS_ALLOW_LOCALHOST allows the literal host localhost only (decision 7; issue 34 item 7)', () => {
  const VARIANTS = ['https://localhost./hook', 'http://localhost.:4100/hook', 'https://LOCALHOST/hook', 'http://LocalHost:4100/hook', 'https://localhost../hook', 'https://LOCALHOST./hook'];

  it.each(VARIANTS)('refuses %s on create, on update and as a pharmacy URL, with the switch on; nothing written', async (url) => {
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    const [hooks, pharmacies] = [await countRows(app, 'webhook_endpoints'), await countRows(app, 'pharmacy_connections')];
    expectEnvelope(await hook(app, a.sandboxKey, url), 400, 'validation_error', 'url_forbidden_host');
    expectEnvelope(await pharmacy(app, a.liveKey, url), 400, 'validation_error', 'url_forbidden_host');
    expect([await countRows(app, 'webhook_endpoints'), await countRows(app, 'pharmacy_connections')]).toEqual([hooks, pharmacies]);

    const made = await hook(app, a.sandboxKey, 'http://localhost:4100/hook');
    expect(made.status, made.text).toBe(201);
    const res = await app.request('PATCH', `/v1/developer/webhooks/${made.body.id}`, { key: a.sandboxKey, body: { url } });
    expectEnvelope(res, 400, 'validation_error', 'url_forbidden_host');
    const listed = await app.request('GET', '/v1/developer/webhooks', { key: a.sandboxKey });
    const items = Array.isArray(listed.body) ? listed.body : listed.body.data;
    expect(items.find((w: { id: string }) => w.id === made.body.id).url).toBe('http://localhost:4100/hook');
  });
});

describe('WEBHOOKS_ALLOW_LOCALHOST (item 14)', () => {
  it('names the setting when it refuses localhost, for webhooks and pharmacies alike', async () => {
    for (const [url, code] of [['http://localhost:4100/hook', 'url_not_https'], ['https://localhost/hook', 'url_forbidden_host']]) {
      const res = await hook(strict, s.sandboxKey, url);
      expectEnvelope(res, 400, 'validation_error', code);
      expect(res.body.error.message).toMatch(/WEBHOOKS_ALLOW_LOCALHOST=true/);
      const p = await pharmacy(strict, s.liveKey, url);
      expectEnvelope(p, 400, 'validation_error', code);
      expect(p.body.error.message).toMatch(/WEBHOOKS_ALLOW_LOCALHOST=true/);
    }
    expect((await hook(strict, s.sandboxKey, 'http://hooks.clinic.example/')).body.error.message).toMatch(/WEBHOOKS_ALLOW_LOCALHOST/);
  });

  it('is on by default with the embedded database, under npm start’s NODE_ENV=production too', async () => {
    const local = await startTestApp({ NODE_ENV: 'production', WEBHOOKS_ALLOW_LOCALHOST: undefined }, { embedded: true });
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    try {
      const t = await createTenantWithKeys(local);
      expect((await hook(local, t.sandboxKey, 'http://localhost:4100/hook')).status).toBe(201);
      expect((await pharmacy(local, t.liveKey, 'http://localhost:4101/')).status).toBe(201);
    } finally {
      await local.close();
    }
  });

  it.runIf(process.env.DATABASE_URL)('is off by default on PostgreSQL, whatever NODE_ENV, and on when set', async () => {
    vi.spyOn(dns.promises, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    for (const NODE_ENV of ['production', 'development']) {
      const shared = await startTestApp({ NODE_ENV, AUTH_SECRET: 'x'.repeat(32), WEBHOOKS_ALLOW_LOCALHOST: undefined });
      try {
        const t = await createTenantWithKeys(shared);
        const res = await hook(shared, t.sandboxKey, 'http://localhost:4100/hook');
        expectEnvelope(res, 400, 'validation_error', 'url_not_https');
        expect(res.body.error.message).toContain('WEBHOOKS_ALLOW_LOCALHOST=true');
        expect(await countRows(shared, 'webhook_endpoints')).toBe(0);
      } finally {
        await shared.close();
      }
    }
    const opted = await startTestApp({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), WEBHOOKS_ALLOW_LOCALHOST: 'true' });
    try {
      const t = await createTenantWithKeys(opted);
      expect((await hook(opted, t.sandboxKey, 'http://localhost:4100/hook')).status).toBe(201);
    } finally {
      await opted.close();
    }
  });

  it('defaults from the database kind, not NODE_ENV; an explicit value wins', () => {
    const pg = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/any' };
    const on = (env: Record<string, string>) => allowLocalhostWebhooks(loadConfig(env));
    expect([on({ NODE_ENV: 'production' }), on({ NODE_ENV: 'development' })]).toEqual([true, true]);
    expect([on({ ...pg, NODE_ENV: 'production' }), on({ ...pg, NODE_ENV: 'development' }), on({ ...pg, NODE_ENV: 'test' })]).toEqual([false, false, false]);
    expect([on({ ...pg, WEBHOOKS_ALLOW_LOCALHOST: 'true' }), on({ WEBHOOKS_ALLOW_LOCALHOST: 'false' })]).toEqual([true, false]);
  });
});
