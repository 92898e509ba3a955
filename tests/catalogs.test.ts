import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { catalogWorld } from './helpers/catalog-world';

let app: TestApp;
let a: Clinic;
let b: Clinic;
let world: ReturnType<typeof catalogWorld>;
let pharmacy: { id: string };
const HEADER = 'sku,item_code,price_cents,stock,eta_days';

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app, 'Catalog A');
  b = await createTenantWithKeys(app, 'Catalog B');
  world = catalogWorld(app, a.sandboxKey);
  await world.product('SEMA');
  await world.product('TIRZ');
  await world.product('NDL');
  pharmacy = await world.pharmacy('Sunrise', ['CA', 'NY']);
});
afterAll(async () => app?.close());

const written = async () => ({ catalogs: await countRows(app, 'catalogs'), lines: await countRows(app, 'catalog_lines') });
const get = (key: string, path: string) => app.request('GET', `/v1${path}`, { key });

describe('POST /catalogs/upload', () => {
  it('loads a text/csv price list as a pending catalog whose lines GET /catalogs/{id} shows', async () => {
    const res = await world.upload(pharmacy.id, `${HEADER}\nSEMA,SUN-1,18900,120,4\r\nTIRZ,SUN-2,24900,0,5\n`);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'catalog', livemode: false, pharmacyConnectionId: pharmacy.id, source: 'upload', status: 'pending', lineCount: 2, skippedCount: 0, rejectionReason: null, reviewedAt: null });
    const full = await get(a.sandboxKey, `/catalogs/${res.body.id}`);
    expect(full.status).toBe(200);
    expect(full.body.lines).toEqual([
      { line: 2, productId: expect.stringMatching(/^prd_/), sku: 'SEMA', itemCode: 'SUN-1', priceCents: 18900, stock: 120, etaDays: 4 },
      { line: 3, productId: expect.stringMatching(/^prd_/), sku: 'TIRZ', itemCode: 'SUN-2', priceCents: 24900, stock: 0, etaDays: 5 },
    ]);
  });

  it('accepts JSON {csv}, product ids instead of SKUs, any header case and extra columns', async () => {
    const ndl = (await get(a.sandboxKey, '/products')).body.find((p: { sku: string }) => p.sku === 'NDL');
    const csv = `Product_ID,Item Code,PRICE_CENTS,stock,eta_days,notes\n${ndl.id},X-9,100,5,2,"boxed, 100 ct"`;
    const res = await app.request('POST', `/v1/catalogs/upload?pharmacyConnectionId=${pharmacy.id}`, { key: a.sandboxKey, body: { csv } });
    expect(res.status).toBe(201);
    expect(res.body.lineCount).toBe(1);
  });

  it('reports every bad row by line in error.details and applies nothing', async () => {
    const before = await written();
    const csv = [HEADER, 'SEMA,A,100,1,1', 'NOPE,B,100,1,1', 'TIRZ,,12.5,-1,400', 'SEMA,C,100,1,1'].join('\n');
    const res = await world.upload(pharmacy.id, csv);
    expectEnvelope(res, 400, 'validation_error', 'invalid_csv');
    expect(res.body.error.param).toBe('csv');
    expect(res.body.error.message).toMatch(/3 rows are invalid/);
    const details = res.body.error.details as { line: number; param: string }[];
    expect(details.map((d) => `${d.line}:${d.param}`)).toEqual(['3:sku', '4:item_code', '4:price_cents', '4:stock', '4:eta_days', '5:sku']);
    expect(await written()).toEqual(before);
  });

  it('numbers a row by its first line when a quoted field spans lines', async () => {
    const csv = `${HEADER},notes\nSEMA,A,1,1,1,"two\nlines"\nNOPE,B,1,1,1,x`;
    const res = await world.upload(pharmacy.id, csv);
    expectEnvelope(res, 400, 'validation_error', 'invalid_csv');
    expect(res.body.error.details).toEqual([{ line: 4, param: 'sku', message: expect.any(String) }]);
    expect(res.body.error.message).not.toMatch(/\.;|\.\./);
  });

  it.each([
    ['no rows', HEADER, /no rows/],
    ['an empty body', '', /CSV is required|CSV cannot be empty|no rows/],
    ['a missing column', 'sku,item_code,price_cents,stock\nSEMA,A,1,1', /lacks eta_days/],
    ['no sku or product_id column', 'item_code,price_cents,stock,eta_days\nA,1,1,1', /lacks sku or product_id/],
    ['a ragged row', `${HEADER}\nSEMA,A,1,1`, /could not be read/],
  ])('refuses %s with 400 and writes nothing', async (_name, csv, message) => {
    const before = await written();
    const res = await world.upload(pharmacy.id, csv);
    expect(res.status).toBe(400);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.message).toMatch(message);
    expect(await written()).toEqual(before);
  });

  it('treats products of the other mode or tenant as unknown SKUs', async () => {
    await catalogWorld(app, a.liveKey).product('LIVE-ONLY');
    await catalogWorld(app, b.sandboxKey).product('B-ONLY');
    const res = await world.upload(pharmacy.id, `${HEADER}\nLIVE-ONLY,A,1,1,1\nB-ONLY,B,1,1,1`);
    expectEnvelope(res, 400, 'validation_error', 'invalid_csv');
    expect(res.body.error.details.map((d: { line: number }) => d.line)).toEqual([2, 3]);
  });

  it('404s for a connection of another tenant or mode, 400 without the query parameter, 415 for other media', async () => {
    const other = await catalogWorld(app, b.sandboxKey).pharmacy('B pharmacy', ['CA']);
    const live = await catalogWorld(app, a.liveKey).pharmacy('A live', ['CA']);
    const before = await written();
    for (const id of [other.id, live.id, 'phc_01h00000000000000000000000']) expectEnvelope(await world.upload(id, `${HEADER}\nSEMA,A,1,1,1`), 404, 'not_found');
    const noQuery = await app.request('POST', '/v1/catalogs/upload', { key: a.sandboxKey, rawBody: `${HEADER}\nSEMA,A,1,1,1`, headers: { 'content-type': 'text/csv' } });
    expectEnvelope(noQuery, 400, 'validation_error');
    expect(noQuery.body.error.param).toBe('pharmacyConnectionId');
    const plain = await app.request('POST', `/v1/catalogs/upload?pharmacyConnectionId=${pharmacy.id}`, { key: a.sandboxKey, rawBody: 'x', headers: { 'content-type': 'text/plain' } });
    expectEnvelope(plain, 415, 'validation_error', 'unsupported_media_type');
    expect(await written()).toEqual(before);
  });
});

describe('approve and reject', () => {
  it('approval makes the catalog the connection’s price list and supersedes the previous one', async () => {
    const p = await world.pharmacy('Approvals', ['CA']);
    const first = await world.approvedCatalog(p.id, [['SEMA', 'A', 100, 1, 1]]);
    expect(first).toMatchObject({ status: 'approved', reviewedBy: expect.stringMatching(/^key_/) });
    let conn = (await get(a.sandboxKey, '/pharmacies')).body.find((c: { id: string }) => c.id === p.id);
    expect(conn.approvedCatalogId).toBe(first.id);

    const second = await world.approvedCatalog(p.id, [['SEMA', 'B', 90, 1, 1]]);
    expect((await get(a.sandboxKey, `/catalogs/${first.id}`)).body.status).toBe('superseded');
    conn = (await get(a.sandboxKey, '/pharmacies')).body.find((c: { id: string }) => c.id === p.id);
    expect(conn.approvedCatalogId).toBe(second.id);

    const again = await app.request('PATCH', `/v1/catalogs/${second.id}/approve`, { key: a.sandboxKey });
    expectEnvelope(again, 409, 'conflict', 'catalog_not_pending');
    expect(again.body.error.message).toMatch(/approved/);
    expectEnvelope(await app.request('PATCH', `/v1/catalogs/${first.id}/reject`, { key: a.sandboxKey, body: { reason: 'late' } }), 409, 'conflict', 'catalog_not_pending');
  });

  it('refuses to approve an empty catalog (it would take the pharmacy out of routing)', async () => {
    const p = await world.pharmacy('Empty sync', ['CA']);
    const synced = await app.request('POST', `/v1/pharmacies/${p.id}/sync-catalog`, { key: a.sandboxKey });
    expect(synced.body.lineCount).toBe(0);
    expectEnvelope(await app.request('PATCH', `/v1/catalogs/${synced.body.id}/approve`, { key: a.sandboxKey }), 409, 'conflict', 'catalog_empty');
    expect((await get(a.sandboxKey, `/catalogs/${synced.body.id}`)).body.status).toBe('pending');
  });

  it('rejects a pending catalog with its reason; a reason is required', async () => {
    const up = await world.upload(pharmacy.id, `${HEADER}\nSEMA,R,1,1,1`);
    expectEnvelope(await app.request('PATCH', `/v1/catalogs/${up.body.id}/reject`, { key: a.sandboxKey, body: {} }), 400, 'validation_error');
    expectEnvelope(await app.request('PATCH', `/v1/catalogs/${up.body.id}/reject`, { key: a.sandboxKey, body: { reason: '   ' } }), 400, 'validation_error');
    const res = await app.request('PATCH', `/v1/catalogs/${up.body.id}/reject`, { key: a.sandboxKey, body: { reason: 'Prices above contract' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'rejected', rejectionReason: 'Prices above contract' });
    expectEnvelope(await app.request('PATCH', `/v1/catalogs/${up.body.id}/approve`, { key: a.sandboxKey }), 409, 'conflict');
  });

  it('404s on another tenant’s or mode’s catalog for get, approve and reject', async () => {
    const up = await world.upload(pharmacy.id, `${HEADER}\nSEMA,Z,1,1,1`);
    for (const key of [b.sandboxKey, a.liveKey]) {
      expectEnvelope(await get(key, `/catalogs/${up.body.id}`), 404, 'not_found');
      expectEnvelope(await app.request('PATCH', `/v1/catalogs/${up.body.id}/approve`, { key }), 404, 'not_found');
      expectEnvelope(await app.request('PATCH', `/v1/catalogs/${up.body.id}/reject`, { key, body: { reason: 'x' } }), 404, 'not_found');
    }
    expect((await get(a.sandboxKey, `/catalogs/${up.body.id}`)).body.status).toBe('pending');
  });
});

describe('GET /catalogs', () => {
  it('lists newest first, filtered by connection and status, without other tenants’ or modes’ catalogs', async () => {
    const all = await get(a.sandboxKey, '/catalogs');
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThan(3);
    expect(all.body.every((c: { livemode: boolean; lines?: unknown }) => c.livemode === false && c.lines === undefined)).toBe(true);
    const ids = all.body.map((c: { id: string }) => c.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    const pending = await get(a.sandboxKey, `/catalogs?status=pending&pharmacyConnectionId=${pharmacy.id}`);
    expect(pending.body.length).toBeGreaterThan(0);
    expect(pending.body.every((c: { status: string; pharmacyConnectionId: string }) => c.status === 'pending' && c.pharmacyConnectionId === pharmacy.id)).toBe(true);
    expect((await get(a.sandboxKey, '/catalogs?limit=1')).body).toHaveLength(1);
    expectEnvelope(await get(a.sandboxKey, '/catalogs?status=open'), 400, 'validation_error');
    expect((await get(b.liveKey, '/catalogs')).body).toEqual([]);
  });

  it('needs catalog.manage', async () => {
    const reader = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'Orders only', keyType: 'restricted', scopes: ['orders.read'] } });
    const before = await written();
    expectEnvelope(await get(reader.body.key, '/catalogs'), 403, 'permission_error');
    expectEnvelope(await catalogWorld(app, reader.body.key).upload(pharmacy.id, `${HEADER}\nSEMA,A,1,1,1`), 403, 'permission_error');
    expect(await written()).toEqual(before);
  });
});
