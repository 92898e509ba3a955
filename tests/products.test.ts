import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, type Clinic, countRows, createTenantWithKeys, expectEnvelope, startWithTwoClinics, type TestApp } from './helpers/harness';
import { findProductsBySkuOrId } from '@/server/domain/catalog/products';

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());

const createProduct = (key: string, body: unknown) => app.request('POST', '/v1/products', { key, body });
const listProducts = (key: string, query = '') => app.request('GET', `/v1/products${query}`, { key });
const patchProduct = (key: string, id: string, body: unknown) => app.request('PATCH', `/v1/products/${id}`, { key, body });
const createProtocol = (key: string, body: unknown) => app.request('POST', '/v1/protocols', { key, body });
const listProtocols = (key: string, query = '') => app.request('GET', `/v1/protocols${query}`, { key });
const patchProtocol = (key: string, id: string, body: unknown) => app.request('PATCH', `/v1/protocols/${id}`, { key, body });

let skuSeq = 0;
const sku = (base = 'SKU') => `${base}-${++skuSeq}`;
const SEMA = { name: 'Semaglutide', form: 'injection', strength: '2.5 mg/mL' };

async function product(key: string, extra: Record<string, unknown> = {}) {
  const res = await createProduct(key, { ...SEMA, sku: sku(), ...extra });
  if (res.status !== 201) throw new Error(`product create failed: ${res.status} ${res.text}`);
  return res.body as { id: string; sku: string };
}

/** Sends a request that must be refused with 400 naming `param`, and proves it wrote nothing. */
async function expectRejected(table: string, send: () => Promise<ApiResponse>, param: string) {
  const before = await countRows(app, table);
  const res = await send();
  expectEnvelope(res, 400, 'validation_error');
  expect(res.body.error.param, res.text).toBe(param);
  expect(await countRows(app, table)).toBe(before);
  return res;
}

describe('POST /v1/products', () => {
  it('creates a product with defaults and the documented shape', async () => {
    const res = await createProduct(a.sandboxKey, { name: '  Semaglutide  ', sku: 'SEMA-2.5_mg', form: 'injection', strength: '2.5 mg' });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^prd_[0-9a-z]{26}$/);
    expect(res.body).toEqual({
      id: res.body.id,
      object: 'product',
      livemode: false,
      name: 'Semaglutide',
      sku: 'SEMA-2.5_mg',
      form: 'injection',
      strength: '2.5 mg',
      rxRequired: true,
      active: true,
      description: null,
      ndc: null,
      rxcui: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updatedAt: res.body.createdAt,
    });
  });

  it('takes every field, and live keys create live products', async () => {
    const res = await createProduct(a.liveKey, {
      name: 'Glucose meter',
      sku: sku('GM'),
      form: 'device',
      rxRequired: false,
      active: false,
      description: 'Blood glucose meter with 50 strips',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ livemode: true, form: 'device', strength: null, rxRequired: false, active: false, description: 'Blood glucose meter with 50 strips' });
  });

  it.each([
    ['name missing', { sku: 'X1', form: 'tablet' }, 'name'],
    ['name empty', { name: '', sku: 'X1', form: 'tablet' }, 'name'],
    ['name only spaces', { name: '   ', sku: 'X1', form: 'tablet' }, 'name'],
    ['name too long', { name: 'n'.repeat(201), sku: 'X1', form: 'tablet' }, 'name'],
    ['name not a string', { name: 42, sku: 'X1', form: 'tablet' }, 'name'],
    ['sku missing', { name: 'N', form: 'tablet' }, 'sku'],
    ['sku empty', { name: 'N', sku: '', form: 'tablet' }, 'sku'],
    ['sku with a space', { name: 'N', sku: 'A B', form: 'tablet' }, 'sku'],
    ['sku with a slash', { name: 'N', sku: 'A/B', form: 'tablet' }, 'sku'],
    ['sku too long', { name: 'N', sku: 'S'.repeat(65), form: 'tablet' }, 'sku'],
    ['form missing', { name: 'N', sku: 'X1' }, 'form'],
    ['form unknown', { name: 'N', sku: 'X1', form: 'pill' }, 'form'],
    ['strength too long', { name: 'N', sku: 'X1', form: 'tablet', strength: 's'.repeat(51) }, 'strength'],
    ['strength empty', { name: 'N', sku: 'X1', form: 'tablet', strength: '' }, 'strength'],
    ['rxRequired as a string', { name: 'N', sku: 'X1', form: 'tablet', rxRequired: 'false' }, 'rxRequired'],
    ['active as a number', { name: 'N', sku: 'X1', form: 'tablet', active: 1 }, 'active'],
    ['description too long', { name: 'N', sku: 'X1', form: 'tablet', description: 'd'.repeat(2001) }, 'description'],
    ['unknown field', { name: 'N', sku: 'X1', form: 'tablet', priceCents: 100 }, 'priceCents'],
  ])('rejects %s with 400 and writes nothing', async (_label, body, param) => {
    await expectRejected('products', () => createProduct(a.sandboxKey, body), param);
  });

  it('answers 409 sku_taken for a duplicate SKU in the same tenant and mode, writing nothing', async () => {
    const first = await product(a.sandboxKey);
    const before = await countRows(app, 'products');
    const dup = await createProduct(a.sandboxKey, { name: 'Other', sku: first.sku, form: 'tablet' });
    expectEnvelope(dup, 409, 'conflict', 'sku_taken');
    expect(dup.body.error.param).toBe('sku');
    expect(await countRows(app, 'products')).toBe(before);
  });

  it('lets the same SKU exist in the other mode and in another tenant', async () => {
    const first = await product(a.sandboxKey);
    expect((await createProduct(a.liveKey, { name: 'Live twin', sku: first.sku, form: 'tablet' })).status).toBe(201);
    expect((await createProduct(b.sandboxKey, { name: 'B twin', sku: first.sku, form: 'tablet' })).status).toBe(201);
  });

  it('gives one 201 and one 409 when two requests race for a SKU', async () => {
    const racing = sku('RACE');
    const results = await Promise.all([1, 2, 3].map((n) => createProduct(a.sandboxKey, { name: `Race ${n}`, sku: racing, form: 'tablet' })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectEnvelope(r, 409, 'conflict', 'sku_taken');
  });
});

describe('GET /v1/products', () => {
  it('lists the caller’s tenant and mode only, newest first, with cursor paging', async () => {
    const mine = [await product(b.liveKey), await product(b.liveKey), await product(b.liveKey)];
    await product(b.sandboxKey);
    const all = await listProducts(b.liveKey);
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body.map((p: { id: string }) => p.id)).toEqual(mine.map((p) => p.id).reverse());
    expect(all.body.every((p: { livemode: boolean }) => p.livemode)).toBe(true);

    const page1 = await listProducts(b.liveKey, '?limit=2');
    expect(page1.body.map((p: { id: string }) => p.id)).toEqual([mine[2].id, mine[1].id]);
    const page2 = await listProducts(b.liveKey, `?limit=2&starting_after=${mine[1].id}`);
    expect(page2.body.map((p: { id: string }) => p.id)).toEqual([mine[0].id]);
  });

  it('filters on active with exactly "true" or "false"', async () => {
    const { liveKey } = await createTenantWithKeys(app, 'Clinic F');
    const on = await product(liveKey);
    const off = await product(liveKey, { active: false });
    expect((await listProducts(liveKey, '?active=true')).body.map((p: { id: string }) => p.id)).toEqual([on.id]);
    expect((await listProducts(liveKey, '?active=false')).body.map((p: { id: string }) => p.id)).toEqual([off.id]);
    expect((await listProducts(liveKey)).body).toHaveLength(2);
    for (const bad of ['yes', '1', 'TRUE', '']) {
      const res = await listProducts(liveKey, `?active=${bad}`);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe('active');
    }
  });

  it('rejects page sizes outside 1 to 100', async () => {
    for (const limit of ['0', '101', 'abc']) {
      const res = await listProducts(a.sandboxKey, `?limit=${limit}`);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe('limit');
    }
    expect((await listProducts(a.sandboxKey, '?limit=100')).status).toBe(200);
  });
});

describe('PATCH /v1/products/{id}', () => {
  it('changes only the fields sent, and null clears strength and description', async () => {
    const p = await product(a.sandboxKey, { description: 'Weekly GLP-1' });
    const res = await patchProduct(a.sandboxKey, p.id, { name: 'Semaglutide (compounded)', active: false, strength: null, description: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: p.id, name: 'Semaglutide (compounded)', sku: p.sku, form: 'injection', active: false, strength: null, description: null, rxRequired: true });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(res.body.createdAt));
    const same = await patchProduct(a.sandboxKey, p.id, {});
    expect(same.status).toBe(200);
    expect(same.body).toEqual(res.body);
  });

  it('lets a SKU change to a free SKU or to itself, and answers 409 for a taken one', async () => {
    const p = await product(a.sandboxKey);
    const other = await product(a.sandboxKey);
    expect((await patchProduct(a.sandboxKey, p.id, { sku: p.sku })).status).toBe(200);
    const taken = await patchProduct(a.sandboxKey, p.id, { sku: other.sku });
    expectEnvelope(taken, 409, 'conflict', 'sku_taken');
    expect(taken.body.error.param).toBe('sku');
    const fresh = sku('NEW');
    const moved = await patchProduct(a.sandboxKey, p.id, { sku: fresh });
    expect(moved.status).toBe(200);
    expect(moved.body.sku).toBe(fresh);
    // The old SKU is free again.
    expect((await createProduct(a.sandboxKey, { name: 'Reuse', sku: p.sku, form: 'kit' })).status).toBe(201);
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ sku: 'bad sku' }, 'sku'],
    [{ form: 'lozenge' }, 'form'],
    [{ strength: 's'.repeat(51) }, 'strength'],
    [{ rxRequired: 'no' }, 'rxRequired'],
    [{ active: null }, 'active'],
    [{ description: 'd'.repeat(2001) }, 'description'],
    [{ id2: 'x' }, 'id2'],
  ])('rejects %o with 400 and leaves the product unchanged', async (body, param) => {
    const p = await product(a.sandboxKey);
    const before = (await listProducts(a.sandboxKey, '?limit=1')).body[0];
    await expectRejected('products', () => patchProduct(a.sandboxKey, p.id, body), param);
    expect((await listProducts(a.sandboxKey, '?limit=1')).body[0]).toEqual(before);
  });

  it('answers 404 for an unknown id and for another tenant’s or the other mode’s product', async () => {
    const p = await product(a.sandboxKey);
    expectEnvelope(await patchProduct(b.sandboxKey, p.id, { name: 'Stolen' }), 404, 'not_found', 'resource_missing');
    expectEnvelope(await patchProduct(a.liveKey, p.id, { name: 'Other mode' }), 404, 'not_found', 'resource_missing');
    expectEnvelope(await patchProduct(a.sandboxKey, 'prd_01h2xcejqtf2nbrexx3vqjhp41', { name: 'Nobody' }), 404, 'not_found', 'resource_missing');
    const after = (await listProducts(a.sandboxKey)).body.find((x: { id: string }) => x.id === p.id);
    expect(after.name).toBe(SEMA.name);
  });
});

describe('protocols', () => {
  const item = (productId: string, extra: Record<string, unknown> = {}) => ({
    productId,
    quantity: 4,
    sig: 'Inject 0.25 mg subcutaneously once weekly',
    ...extra,
  });

  it('creates a protocol with defaults, lists it and patches it', async () => {
    const sema = await product(a.liveKey);
    const needles = await product(a.liveKey, { form: 'kit', rxRequired: false });
    const res = await createProtocol(a.liveKey, {
      name: '  GLP-1 starter  ',
      items: [item(sema.id, { refills: 2 }), item(needles.id, { quantity: 10, sig: 'Use one needle per injection' })],
    });
    expect(res.status).toBe(201);
    expect(res.body.id).toMatch(/^prt_[0-9a-z]{26}$/);
    expect(res.body).toEqual({
      id: res.body.id,
      object: 'protocol',
      livemode: true,
      name: 'GLP-1 starter',
      description: null,
      active: true,
      items: [
        { productId: sema.id, quantity: 4, sig: 'Inject 0.25 mg subcutaneously once weekly', refills: 2 },
        { productId: needles.id, quantity: 10, sig: 'Use one needle per injection', refills: 0 },
      ],
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: res.body.createdAt,
    });

    const second = await createProtocol(a.liveKey, { name: 'Maintenance', description: 'Month 3+', active: false, items: [item(sema.id)] });
    expect(second.status).toBe(201);
    const listed = await listProtocols(a.liveKey);
    expect(listed.status).toBe(200);
    expect(listed.body.slice(0, 2).map((p: { id: string }) => p.id)).toEqual([second.body.id, res.body.id]);
    expect((await listProtocols(a.liveKey, '?active=false')).body.map((p: { id: string }) => p.id)).toContain(second.body.id);
    expect((await listProtocols(a.liveKey, '?active=true')).body.map((p: { id: string }) => p.id)).not.toContain(second.body.id);
    expect((await listProtocols(a.sandboxKey)).body.map((p: { id: string }) => p.id)).not.toContain(res.body.id);
    expect((await listProtocols(a.liveKey, '?limit=1')).body).toHaveLength(1);

    const patched = await patchProtocol(a.liveKey, res.body.id, { description: 'Weeks 1-4', items: [item(needles.id, { refills: 12 })] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'GLP-1 starter', description: 'Weeks 1-4', active: true });
    expect(patched.body.items).toEqual([{ productId: needles.id, quantity: 4, sig: 'Inject 0.25 mg subcutaneously once weekly', refills: 12 }]);
    const cleared = await patchProtocol(a.liveKey, res.body.id, { description: null, active: false });
    expect(cleared.body).toMatchObject({ description: null, active: false, items: patched.body.items });
  });

  it.each([
    ['name missing', (p: string) => ({ items: [item(p)] }), 'name'],
    ['name too long', (p: string) => ({ name: 'n'.repeat(201), items: [item(p)] }), 'name'],
    ['description too long', (p: string) => ({ name: 'P', description: 'd'.repeat(2001), items: [item(p)] }), 'description'],
    ['active as a string', (p: string) => ({ name: 'P', active: 'true', items: [item(p)] }), 'active'],
    ['items missing', () => ({ name: 'P' }), 'items'],
    ['items empty', () => ({ name: 'P', items: [] }), 'items'],
    ['51 items', (p: string) => ({ name: 'P', items: Array.from({ length: 51 }, () => item(p)) }), 'items'],
    ['quantity 0', (p: string) => ({ name: 'P', items: [item(p, { quantity: 0 })] }), 'items.0.quantity'],
    ['quantity 1001', (p: string) => ({ name: 'P', items: [item(p), item(p, { quantity: 1001 })] }), 'items.1.quantity'],
    ['fractional quantity', (p: string) => ({ name: 'P', items: [item(p, { quantity: 1.5 })] }), 'items.0.quantity'],
    ['quantity as a string', (p: string) => ({ name: 'P', items: [item(p, { quantity: '4' })] }), 'items.0.quantity'],
    ['sig empty', (p: string) => ({ name: 'P', items: [item(p, { sig: '  ' })] }), 'items.0.sig'],
    ['sig too long', (p: string) => ({ name: 'P', items: [item(p, { sig: 's'.repeat(501) })] }), 'items.0.sig'],
    ['refills 13', (p: string) => ({ name: 'P', items: [item(p, { refills: 13 })] }), 'items.0.refills'],
    ['refills -1', (p: string) => ({ name: 'P', items: [item(p, { refills: -1 })] }), 'items.0.refills'],
    ['productId missing', () => ({ name: 'P', items: [{ quantity: 1, sig: 'Take one' }] }), 'items.0.productId'],
    ['unknown item field', (p: string) => ({ name: 'P', items: [item(p, { dose: '1 mg' })] }), 'items.0.dose'],
    ['unknown field', (p: string) => ({ name: 'P', items: [item(p)], priceCents: 1 }), 'priceCents'],
    ['unknown product', (p: string) => ({ name: 'P', items: [item(p), item('prd_01h2xcejqtf2nbrexx3vqjhp41')] }), 'items.1.productId'],
  ])('rejects %s with 400 and writes nothing', async (_label, body, param) => {
    const p = await product(a.sandboxKey);
    await expectRejected('protocols', () => createProtocol(a.sandboxKey, body(p.id)), param);
  });

  it('refuses another tenant’s or the other mode’s product as unknown, without telling them apart', async () => {
    const mine = await product(a.sandboxKey);
    const theirs = await product(b.sandboxKey);
    const liveOne = await product(a.liveKey);
    const other = await expectRejected('protocols', () => createProtocol(a.sandboxKey, { name: 'P', items: [item(mine.id), item(theirs.id)] }), 'items.1.productId');
    expect(other.body.error.code).toBe('unknown_product');
    const mode = await expectRejected('protocols', () => createProtocol(a.sandboxKey, { name: 'P', items: [item(liveOne.id), item(mine.id)] }), 'items.0.productId');
    const none = await expectRejected('protocols', () => createProtocol(a.sandboxKey, { name: 'P', items: [item('prd_01h2xcejqtf2nbrexx3vqjhp41')] }), 'items.0.productId');
    expect(mode.body.error.message).toBe(none.body.error.message);
    expect(other.body.error.message).toBe(none.body.error.message.replace('items[0]', 'items[1]'));
    expect(other.text).not.toContain(theirs.id);
  });

  it('validates items on PATCH too and answers 404 across tenants and modes', async () => {
    const mine = await product(a.sandboxKey);
    const theirs = await product(b.sandboxKey);
    const created = await createProtocol(a.sandboxKey, { name: 'P', items: [item(mine.id)] });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    await expectRejected('protocols', () => patchProtocol(a.sandboxKey, id, { items: [item(theirs.id)] }), 'items.0.productId');
    await expectRejected('protocols', () => patchProtocol(a.sandboxKey, id, { items: [] }), 'items');
    await expectRejected('protocols', () => patchProtocol(a.sandboxKey, id, { name: '' }), 'name');
    const unchanged = (await listProtocols(a.sandboxKey)).body.find((p: { id: string }) => p.id === id);
    expect(unchanged).toEqual(created.body);
    expectEnvelope(await patchProtocol(b.sandboxKey, id, { name: 'Stolen' }), 404, 'not_found', 'resource_missing');
    expectEnvelope(await patchProtocol(a.liveKey, id, { name: 'Other mode' }), 404, 'not_found', 'resource_missing');
    expectEnvelope(await patchProtocol(a.sandboxKey, 'prt_01h2xcejqtf2nbrexx3vqjhp41', { name: 'Nobody' }), 404, 'not_found', 'resource_missing');
  });
});

describe('catalog.manage scope', () => {
  it('refuses a restricted key without catalog.manage (403) and admits one with it', async () => {
    const reader = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'Orders only', keyType: 'restricted', scopes: ['orders.read'] } });
    expect(reader.status).toBe(201);
    const key = reader.body.key as string;
    const p = await product(a.sandboxKey);
    const before = await countRows(app, 'products');
    for (const res of [
      await listProducts(key),
      await createProduct(key, { name: 'N', sku: sku(), form: 'tablet' }),
      await patchProduct(key, p.id, { name: 'N' }),
      await listProtocols(key),
      await createProtocol(key, { name: 'P', items: [{ productId: p.id, quantity: 1, sig: 'Take one' }] }),
      await patchProtocol(key, 'prt_01h2xcejqtf2nbrexx3vqjhp41', { name: 'N' }),
    ]) {
      expectEnvelope(res, 403, 'permission_error', 'missing_scope');
    }
    expect(await countRows(app, 'products')).toBe(before);

    const manager = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'Catalog', keyType: 'restricted', scopes: ['catalog.manage'] } });
    expect((await createProduct(manager.body.key, { name: 'N', sku: sku(), form: 'tablet' })).status).toBe(201);
    expect((await listProtocols(manager.body.key)).status).toBe(200);
  });

  it('lets a credential that may create orders list products (to order them), and nothing more of the catalog', async () => {
    const p = await product(a.sandboxKey);
    const orderer = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'Orders', keyType: 'restricted', scopes: ['orders.write'] } });
    const key = orderer.body.key as string;
    const listed = await listProducts(key);
    expect(listed.status).toBe(200);
    expect(listed.body.map((x: { id: string }) => x.id)).toContain(p.id);
    const before = await countRows(app, 'products');
    for (const res of [await createProduct(key, { name: 'N', sku: sku(), form: 'tablet' }), await patchProduct(key, p.id, { name: 'N' }), await listProtocols(key)]) {
      expectEnvelope(res, 403, 'permission_error', 'missing_scope');
    }
    expect(await countRows(app, 'products')).toBe(before);
  });
});

describe('findProductsBySkuOrId', () => {
  it('resolves ids and SKUs of the scope in one call, ignoring other tenants and modes', async () => {
    const { tenantId, sandboxKey, liveKey } = await createTenantWithKeys(app, 'Clinic R');
    const one = await product(sandboxKey);
    const two = await product(sandboxKey);
    const liveTwin = await createProduct(liveKey, { name: 'Live', sku: 'LIVE-ONLY', form: 'tablet' });
    const foreign = await product(b.sandboxKey);
    const db = app.services.database.db;
    const found = await findProductsBySkuOrId(db, { tenantId, livemode: false }, [one.id, two.sku, 'LIVE-ONLY', foreign.id, foreign.sku, 'nope', one.id]);
    expect([...found.keys()].sort()).toEqual([one.id, two.sku].sort());
    expect(found.get(one.id)?.id).toBe(one.id);
    expect(found.get(two.sku)?.id).toBe(two.id);
    expect((await findProductsBySkuOrId(db, { tenantId, livemode: true }, ['LIVE-ONLY'])).get('LIVE-ONLY')?.id).toBe(liveTwin.body.id);
    expect((await findProductsBySkuOrId(db, { tenantId, livemode: false }, [])).size).toBe(0);
  });
});

describe('OpenAPI document', () => {
  it('documents every field of products and protocols, responses and request bodies alike', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    const schemas = doc.components.schemas;
    const undocumented = (name: string, schema: { properties: Record<string, { description?: string }> }) =>
      Object.entries(schema.properties)
        .filter(([, p]) => !p.description)
        .map(([k]) => `${name}.${k}`);
    expect(Object.keys(schemas.Product.properties).sort()).toEqual(
      ['active', 'createdAt', 'description', 'form', 'id', 'livemode', 'name', 'ndc', 'object', 'rxRequired', 'rxcui', 'sku', 'strength', 'updatedAt'].sort(),
    );
    expect(Object.keys(schemas.Protocol.properties).sort()).toEqual(
      ['active', 'createdAt', 'description', 'id', 'items', 'livemode', 'name', 'object', 'updatedAt'].sort(),
    );
    const bodies = [
      ['POST /products', doc.paths['/products'].post],
      ['PATCH /products/{id}', doc.paths['/products/{id}'].patch],
      ['POST /protocols', doc.paths['/protocols'].post],
      ['PATCH /protocols/{id}', doc.paths['/protocols/{id}'].patch],
    ].map(([name, op]) => [name, op.requestBody.content['application/json'].schema]);
    const missing = [
      ...['Product', 'Protocol', 'ProtocolItem', 'ProtocolItemInput'].flatMap((n) => undocumented(n, schemas[n])),
      ...bodies.flatMap(([name, schema]) => undocumented(name, schema)),
    ];
    expect(missing).toEqual([]);
    for (const path of ['/products', '/protocols']) {
      expect(doc.paths[path].get.parameters.find((p: { name: string }) => p.name === 'active').schema.description).toBeTruthy();
      expect(doc.paths[path].post.responses['201'].content['application/json'].schema.$ref).toMatch(/Product|Protocol/);
      expect(doc.paths[path].get.tags).toEqual(['catalog']);
    }
  });
});
