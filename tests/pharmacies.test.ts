import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { catalogWorld } from './helpers/catalog-world';

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app, 'Pharmacies A');
  b = await createTenantWithKeys(app, 'Pharmacies B');
});
afterAll(async () => app?.close());

const create = (key: string, body: unknown) => app.request('POST', '/v1/pharmacies', { key, body });
const patch = (key: string, id: string, body: unknown) => app.request('PATCH', `/v1/pharmacies/${id}`, { key, body });
const list = (key: string) => app.request('GET', '/v1/pharmacies', { key });

describe('POST /pharmacies', () => {
  it('connects a simulated pharmacy with defaults filled in and shows its secret once', async () => {
    const res = await create(a.sandboxKey, { name: 'Sunrise', adapter: 'simulated', states: ['ny', 'CA', 'CA'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'pharmacy_connection',
      livemode: false,
      name: 'Sunrise',
      adapter: 'simulated',
      states: ['CA', 'NY'],
      status: 'enabled',
      approvedCatalogId: null,
      callbackUrl: `/v1/pharmacy-callbacks/${res.body.id}`,
      settings: { behavior: 'accept', acceptAfterSeconds: 0, shipAfterSeconds: 60, deliverAfterSeconds: 300, carrier: 'UPS', outOfStock: [], catalog: [] },
    });
    expect(res.body.id).toMatch(/^phc_/);
    expect(res.body.secret).toMatch(/^whsec_/);
    const listed = await list(a.sandboxKey);
    expect(listed.text).not.toContain(res.body.secret);
    expect(listed.body.find((c: { id: string }) => c.id === res.body.id).secretHint.endsWith(res.body.secret.slice(-4))).toBe(true);
  });

  it('allows only the simulated adapter in sandbox', async () => {
    const before = await countRows(app, 'pharmacy_connections');
    const res = await create(a.sandboxKey, { name: 'Real', adapter: 'http', settings: { baseUrl: 'https://pharmacy.example.com' }, states: ['CA'] });
    expectEnvelope(res, 400, 'validation_error', 'sandbox_requires_simulated');
    expect(res.body.error.param).toBe('adapter');
    expect(await countRows(app, 'pharmacy_connections')).toBe(before);
  });

  it.each([
    ['an unknown setting', { settings: { colour: 'red' } }, 'settings.colour'],
    ['a bad behaviour', { settings: { behavior: 'maybe' } }, 'settings.behavior'],
    ['delays out of order', { settings: { shipAfterSeconds: 100, deliverAfterSeconds: 50 } }, 'settings.deliverAfterSeconds'],
    ['a negative delay', { settings: { acceptAfterSeconds: -1 } }, 'settings.acceptAfterSeconds'],
    ['a bad catalog row', { settings: { catalog: [{ sku: 'A', itemCode: 'B', priceCents: -1, stock: 1, etaDays: 1 }] } }, 'settings.catalog.0.priceCents'],
    ['an unknown state', { states: ['CA', 'ZZ'] }, 'states.1'],
    ['no states', { states: [] }, 'states'],
    ['no name', { name: '  ' }, 'name'],
    ['an unknown adapter', { adapter: 'fax' }, 'adapter'],
    ['an unknown field', { secret: 'mine' }, 'secret'],
  ])('refuses %s with 400 naming the param, writing nothing', async (_n, change, param) => {
    const before = await countRows(app, 'pharmacy_connections');
    const res = await create(a.sandboxKey, { name: 'P', adapter: 'simulated', states: ['CA'], ...change });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
    expect(res.body.error.message.length).toBeLessThan(200);
    expect(await countRows(app, 'pharmacy_connections')).toBe(before);
  });

  it('applies the webhook URL rules to an http pharmacy’s base URL', async () => {
    const before = await countRows(app, 'pharmacy_connections');
    for (const baseUrl of ['https://10.0.0.8/api', 'https://169.254.169.254/', 'ftp://pharmacy.example.com', 'not a url', 'http://pharmacy.example.com']) {
      const res = await create(a.liveKey, { name: 'Bad', adapter: 'http', settings: { baseUrl }, states: ['CA'] });
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe('settings.baseUrl');
    }
    expectEnvelope(await create(a.liveKey, { name: 'Bad', adapter: 'http', settings: {}, states: ['CA'] }), 400, 'validation_error');
    expect(await countRows(app, 'pharmacy_connections')).toBe(before);
    const ok = await create(a.liveKey, { name: 'Local', adapter: 'http', settings: { baseUrl: 'http://localhost:9/' }, states: ['CA'] });
    expect(ok.status).toBe(201);
    expect(ok.body.settings).toEqual({ baseUrl: 'http://localhost:9/', timeoutMs: 10000 });
  });
});

describe('PATCH /pharmacies/{id} and GET /pharmacies', () => {
  it('changes only the fields sent and keeps the adapter', async () => {
    const made = await create(a.sandboxKey, { name: 'Editable', adapter: 'simulated', states: ['CA'] });
    const res = await patch(a.sandboxKey, made.body.id, { status: 'disabled', states: ['tx'], settings: { behavior: 'reject', rejectReasonCode: 'license_hold' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Editable', status: 'disabled', states: ['TX'], settings: { behavior: 'reject', rejectReasonCode: 'license_hold', shipAfterSeconds: 60 } });
    const adapter = await patch(a.sandboxKey, made.body.id, { adapter: 'http' });
    expectEnvelope(adapter, 400, 'validation_error', 'unknown_parameter');
    const bad = await patch(a.sandboxKey, made.body.id, { settings: { carrier: 'Pigeon' } });
    expect(bad.body.error.param).toBe('settings.carrier');
    const now = (await list(a.sandboxKey)).body.find((c: { id: string }) => c.id === made.body.id);
    expect(now).toMatchObject({ status: 'disabled', settings: { carrier: 'UPS' } });
  });

  it('404s for another tenant’s or mode’s connection and lists only its own', async () => {
    const made = await create(a.sandboxKey, { name: 'Mine', adapter: 'simulated', states: ['CA'] });
    for (const key of [b.sandboxKey, a.liveKey]) {
      expectEnvelope(await patch(key, made.body.id, { name: 'Stolen' }), 404, 'not_found');
      expectEnvelope(await app.request('POST', `/v1/pharmacies/${made.body.id}/sync-catalog`, { key }), 404, 'not_found');
      expect((await list(key)).body.map((c: { id: string }) => c.id)).not.toContain(made.body.id);
    }
    const mine = (await list(a.sandboxKey)).body;
    expect(mine.every((c: { livemode: boolean }) => !c.livemode)).toBe(true);
    expect(mine[0].id > mine[mine.length - 1].id).toBe(true);
    expect((await app.request('GET', '/v1/pharmacies?limit=1', { key: a.sandboxKey })).body).toHaveLength(1);
  });

  it('needs pharmacies.manage', async () => {
    const reader = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'Catalog only', keyType: 'restricted', scopes: ['catalog.manage'] } });
    const before = await countRows(app, 'pharmacy_connections');
    expectEnvelope(await list(reader.body.key), 403, 'permission_error');
    expectEnvelope(await create(reader.body.key, { name: 'P', adapter: 'simulated', states: ['CA'] }), 403, 'permission_error');
    expectEnvelope(await app.request('GET', '/v1/pharmacies/routing-policy', { key: reader.body.key }), 403, 'permission_error');
    expect(await countRows(app, 'pharmacy_connections')).toBe(before);
  });
});

describe('POST /pharmacies/{id}/sync-catalog (simulated)', () => {
  it('loads the scripted price list as a pending catalog, skipping and counting unknown SKUs', async () => {
    const world = catalogWorld(app, b.sandboxKey);
    await world.product('GLP');
    const catalog = [
      { sku: 'GLP', itemCode: 'S-1', priceCents: 1000, stock: 5, etaDays: 2 },
      { sku: 'UNKNOWN', itemCode: 'S-2', priceCents: 1, stock: 1, etaDays: 1 },
    ];
    const p = await world.pharmacy('Syncing', ['CA'], { catalog });
    const res = await app.request('POST', `/v1/pharmacies/${p.id}/sync-catalog`, { key: b.sandboxKey });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ source: 'sync', status: 'pending', lineCount: 1, skippedCount: 1, pharmacyConnectionId: p.id });
  });
});

describe('routing policy', () => {
  it('starts at the defaults and keeps fields not sent', async () => {
    const t = await createTenantWithKeys(app, 'Policy');
    const first = await app.request('GET', '/v1/pharmacies/routing-policy', { key: t.liveKey });
    expect(first.body).toEqual({ object: 'routing_policy', livemode: true, strategy: 'lowest_cost', priority: [], requireStateLicense: true, allowFallback: true, updatedAt: null });
    const p = await catalogWorld(app, t.liveKey).pharmacy('P', ['CA']);
    const set = await catalogWorld(app, t.liveKey).policy({ strategy: 'priority', priority: [p.id] });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ strategy: 'priority', priority: [p.id], requireStateLicense: true, allowFallback: true });
    const flip = await catalogWorld(app, t.liveKey).policy({ allowFallback: false });
    expect(flip.body).toMatchObject({ strategy: 'priority', priority: [p.id], allowFallback: false });
    expect((await app.request('GET', '/v1/pharmacies/routing-policy', { key: t.sandboxKey })).body.strategy).toBe('lowest_cost');
  });

  it('refuses unknown, foreign, other-mode and repeated connection ids with 400 naming the position', async () => {
    const t = await createTenantWithKeys(app, 'Policy ids');
    const w = catalogWorld(app, t.sandboxKey);
    const mine = await w.pharmacy('Mine', ['CA']);
    const foreign = await catalogWorld(app, b.sandboxKey).pharmacy('Foreign', ['CA']);
    const live = await catalogWorld(app, t.liveKey).pharmacy('Live', ['CA']);
    for (const [priority, param, code] of [
      [[mine.id, foreign.id], 'priority.1', 'unknown_connection'],
      [[live.id], 'priority.0', 'unknown_connection'],
      [['phc_01h00000000000000000000000'], 'priority.0', 'unknown_connection'],
      [[mine.id, mine.id], 'priority.1', 'duplicate_connection'],
    ] as const) {
      const res = await w.policy({ strategy: 'priority', priority });
      expectEnvelope(res, 400, 'validation_error', code);
      expect(res.body.error.param).toBe(param);
    }
    expectEnvelope(await w.policy({ strategy: 'random' }), 400, 'validation_error');
    expectEnvelope(await w.policy({ requireStateLicense: 'yes' }), 400, 'validation_error');
    expect(await countRows(app, `routing_policies where tenant_id = '${t.tenantId}'`)).toBe(0);
  });
});
