import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { catalogWorld } from './helpers/catalog-world';

/*
 * Issue 53 item 4 (DESIGN decision 42): products gain optional drug codes. An NDC in any of its 10-digit label
 * forms or as 11 digits is kept as 11 digits 5-4-2; a malformed NDC or RxCUI is a 400 naming the field with
 * nothing written; null clears. A pharmacy's synced feed may carry codes: approving that catalog gives them to
 * products that have none, never over the clinic's own.
 */

let app: TestApp;
let a: Clinic;
const create = (body: Record<string, unknown>) => app.request('POST', '/v1/products', { key: a.sandboxKey, body: { name: 'Semaglutide', form: 'injection', ...body } });
let n = 0;
const sku = () => `CODE-${++n}`;

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app, 'Codes');
});
afterAll(async () => app?.close());

describe('NDC and RxCUI on products', () => {
  it.each([
    ['0169-4132-12', '00169-4132-12', '4-4-2'],
    ['50090-123-01', '50090-0123-01', '5-3-2'],
    ['50090-1234-1', '50090-1234-01', '5-4-1'],
    ['50090-1234-01', '50090-1234-01', '5-4-2 (11 digits with dashes)'],
    ['00169413212', '00169-4132-12', '11 digits without dashes'],
  ])('accepts %s (%s) and keeps it as %s', async (input, stored) => {
    const res = await create({ sku: sku(), ndc: input, rxcui: '1991311' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ ndc: stored, rxcui: '1991311' });
    const listed = await app.request('GET', '/v1/products', { key: a.sandboxKey });
    expect(listed.body.find((p: { id: string }) => p.id === res.body.id)).toMatchObject({ ndc: stored });
  });

  it('a product without codes says null for both', async () => {
    const res = await create({ sku: sku() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ndc: null, rxcui: null });
  });

  it.each([
    ['ndc', '0169413212'],
    ['ndc', '169-4132-12'],
    ['ndc', '00169-4132-123'],
    ['ndc', 'ABCDE-1234-12'],
    ['ndc', ''],
    ['rxcui', 'RX123'],
    ['rxcui', '0123'],
    ['rxcui', '12345678901'],
  ])('refuses a malformed %s (%j): 400 naming the field, nothing written', async (field, value) => {
    const before = await countRows(app, 'products');
    const res = await create({ sku: sku(), [field]: value });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(field);
    expect(await countRows(app, 'products')).toBe(before);
  });

  it('PATCH sets, normalises and clears the codes; a malformed one changes nothing', async () => {
    const made = (await create({ sku: sku() })).body;
    const set = await app.request('PATCH', `/v1/products/${made.id}`, { key: a.sandboxKey, body: { ndc: '50090-123-01', rxcui: '42' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ ndc: '50090-0123-01', rxcui: '42' });
    const bad = await app.request('PATCH', `/v1/products/${made.id}`, { key: a.sandboxKey, body: { ndc: '12-34-56' } });
    expectEnvelope(bad, 400, 'validation_error');
    expect(bad.body.error.param).toBe('ndc');
    const cleared = await app.request('PATCH', `/v1/products/${made.id}`, { key: a.sandboxKey, body: { ndc: null, rxcui: null } });
    expect(cleared.body).toMatchObject({ ndc: null, rxcui: null });
  });
});

describe('drug codes from a pharmacy’s catalog feed', () => {
  it('approving a synced catalog gives its codes to products without any, never over the clinic’s own', async () => {
    const world = catalogWorld(app, a.sandboxKey);
    const bare = await world.product('FEED-BARE');
    const own = (await create({ sku: 'FEED-OWN', ndc: '11111-2222-33' })).body;
    const catalog = [
      { sku: 'FEED-BARE', itemCode: 'P-1', priceCents: 1000, stock: 5, etaDays: 2, ndc: '0169-4132-12', rxcui: '1991311' },
      { sku: 'FEED-OWN', itemCode: 'P-2', priceCents: 900, stock: 5, etaDays: 2, ndc: '99999-8888-77', rxcui: '7' },
    ];
    const pharmacy = await world.pharmacy('Coded feed', ['CA'], { catalog });
    const synced = await app.request('POST', `/v1/pharmacies/${pharmacy.id}/sync-catalog`, { key: a.sandboxKey });
    expect(synced.status, synced.text).toBe(201);
    // Pending: nothing changes before a person approves the catalog.
    expect((await app.request('GET', '/v1/products', { key: a.sandboxKey })).body.find((p: { id: string }) => p.id === bare.id).ndc).toBeNull();
    const approved = await app.request('PATCH', `/v1/catalogs/${synced.body.id}/approve`, { key: a.sandboxKey });
    expect(approved.status, approved.text).toBe(200);
    const products = (await app.request('GET', '/v1/products', { key: a.sandboxKey })).body as { id: string; ndc: string | null; rxcui: string | null }[];
    expect(products.find((p) => p.id === bare.id)).toMatchObject({ ndc: '00169-4132-12', rxcui: '1991311' });
    // Its own NDC stays; the RxCUI it lacked comes from the feed.
    expect(products.find((p) => p.id === own.id)).toMatchObject({ ndc: '11111-2222-33', rxcui: '7' });
  });

  it('a feed row with a malformed NDC is refused with the pharmacy’s settings', async () => {
    const world = catalogWorld(app, a.sandboxKey);
    const res = await app.request('POST', '/v1/pharmacies', {
      key: a.sandboxKey,
      body: { name: 'Bad codes', adapter: 'simulated', states: ['CA'], settings: { catalog: [{ sku: 'X', itemCode: 'X', priceCents: 1, stock: 1, etaDays: 1, ndc: '12345' }] } },
    });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toMatch(/ndc$/);
    void world;
  });
});
