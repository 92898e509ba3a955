import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '@/server/domain/seed/demo';
import { catalogWorld } from './helpers/catalog-world';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';

let app: TestApp;
let t: Clinic;
let other: Clinic;
let w: ReturnType<typeof catalogWorld>;
const ids = {} as Record<'glp' | 'tirz' | 'ndl' | 'idle' | 'sun' | 'lake' | 'off' | 'patientTx' | 'patientNone' | 'livePatient' | 'foreignProduct', string>;

// Sunrise (CA, NY): cheapest GLP, slow. Lakeside (CA, TX): dearer GLP but fast, out of TIRZ. Closed: disabled, cheapest of all.
beforeAll(async () => {
  app = await startTestApp();
  t = await createTenantWithKeys(app, 'Routing');
  other = await createTenantWithKeys(app, 'Routing other');
  w = catalogWorld(app, t.sandboxKey);
  ids.glp = (await w.product('GLP')).id;
  ids.tirz = (await w.product('TIRZ')).id;
  ids.ndl = (await w.product('NDL')).id;
  ids.idle = (await w.product('IDLE', { active: false })).id;
  const sun = await w.pharmacy('Sunrise', ['CA', 'NY']);
  const lake = await w.pharmacy('Lakeside', ['CA', 'TX']);
  const off = await w.pharmacy('Closed', ['CA', 'NY', 'TX'], {}, { status: 'disabled' });
  Object.assign(ids, { sun: sun.id, lake: lake.id, off: off.id });
  await w.approvedCatalog(sun.id, [['GLP', 'S-GLP', 18900, 10, 5], ['TIRZ', 'S-TIR', 24900, 5, 5], ['IDLE', 'S-I', 1, 1, 1]]);
  await w.approvedCatalog(lake.id, [['GLP', 'L-GLP', 21500, 3, 2], ['TIRZ', 'L-TIR', 19900, 0, 2]]);
  await w.approvedCatalog(off.id, [['GLP', 'C-GLP', 100, 99, 1]]);
  // A pending catalog takes no part in routing.
  await w.upload(lake.id, 'sku,item_code,price_cents,stock,eta_days\nNDL,L-N,100,5,1');
  const patient = async (key: string, state?: string) => {
    const body = { firstName: 'Plan', lastName: 'Patient', dateOfBirth: '1980-02-02', sex: 'female', ...(state ? { address: { line1: '1 A St', city: 'X', state, postalCode: '75001' } } : {}) };
    const res = await app.request('POST', '/v1/patients', { key, body });
    if (res.status !== 201) throw new Error(res.text);
    return res.body.id as string;
  };
  ids.patientTx = await patient(t.sandboxKey, 'TX');
  ids.patientNone = await patient(t.sandboxKey);
  ids.livePatient = await patient(t.liveKey, 'TX');
  ids.foreignProduct = (await catalogWorld(app, other.sandboxKey).product('GLP')).id;
});
afterAll(async () => app?.close());

describe('POST /orders/routing/plan', () => {
  it('picks the cheapest qualifying pharmacy by default and explains the choice, alternatives and the ineligible', async () => {
    const res = await w.plan({ items: [{ productId: ids.glp }], patientState: 'CA' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'routing_plan', livemode: false, strategy: 'lowest_cost', patientState: 'CA', stateChecked: true, unfillable: [], totalPriceCents: 18900 });
    const [line] = res.body.lines;
    expect(line).toMatchObject({ index: 0, productId: ids.glp, reason: 'lowest_cost', chosen: { connectionId: ids.sun, name: 'Sunrise', priceCents: 18900, etaDays: 5, stock: 10, itemCode: 'S-GLP' } });
    expect(line.explanation).toMatch(/cheapest of 2 qualifying pharmacies \(\$189\.00 vs \$215\.00\)/);
    expect(line.alternatives).toEqual([expect.objectContaining({ rank: 2, connectionId: ids.lake, priceCents: 21500 })]);
    expect(line.ineligible).toEqual([{ connectionId: ids.off, name: 'Closed', reason: 'disabled', explanation: expect.any(String) }]);
  });

  it('follows the strategy: fastest, then priority list', async () => {
    await w.policy({ strategy: 'fastest' });
    let line = (await w.plan({ items: [{ productId: ids.glp }], patientState: 'CA' })).body.lines[0];
    expect(line).toMatchObject({ reason: 'fastest', chosen: { connectionId: ids.lake } });
    expect(line.explanation).toMatch(/fastest .* \(2 days vs 5\)/);
    await w.policy({ strategy: 'priority', priority: [ids.off, ids.sun, ids.lake] });
    line = (await w.plan({ items: [{ productId: ids.glp }] })).body.lines[0];
    expect(line).toMatchObject({ reason: 'priority', chosen: { connectionId: ids.sun } });
    await w.policy({ strategy: 'lowest_cost', priority: [] });
  });

  it('drops pharmacies that do not ship to the patient’s state, out of stock or without the product; lists unfillable lines', async () => {
    const res = await w.plan({ items: [{ productId: ids.glp }, { productId: ids.tirz }, { productId: ids.ndl }], patientId: ids.patientTx });
    expect(res.status).toBe(201);
    expect(res.body.patientState).toBe('TX');
    expect(res.body.lines).toHaveLength(1);
    expect(res.body.lines[0]).toMatchObject({ index: 0, chosen: { connectionId: ids.lake } });
    expect(res.body.lines[0].ineligible).toEqual(
      expect.arrayContaining([expect.objectContaining({ connectionId: ids.sun, reason: 'state_not_served' }), expect.objectContaining({ connectionId: ids.off, reason: 'disabled' })]),
    );
    const [tirz, ndl] = res.body.unfillable;
    expect(tirz).toMatchObject({ index: 1, reason: 'no_qualifying_pharmacy' });
    expect(Object.fromEntries(tirz.ineligible.map((i: { connectionId: string; reason: string }) => [i.connectionId, i.reason]))).toEqual({
      [ids.sun]: 'state_not_served',
      [ids.lake]: 'out_of_stock',
      [ids.off]: 'disabled',
    });
    expect(ndl).toMatchObject({ index: 2, reason: 'no_qualifying_pharmacy' });
    expect(ndl.ineligible.find((i: { connectionId: string }) => i.connectionId === ids.lake).reason).toBe('not_in_catalog');
  });

  it('skips the state check when the state is unknown or the policy does not require it', async () => {
    const unknown = await w.plan({ items: [{ productId: ids.glp }], patientId: ids.patientNone });
    expect(unknown.body).toMatchObject({ patientState: null, stateChecked: false });
    expect(unknown.body.lines[0].chosen.connectionId).toBe(ids.sun);
    await w.policy({ requireStateLicense: false });
    const relaxed = await w.plan({ items: [{ productId: ids.glp }], patientState: 'TX' });
    expect(relaxed.body).toMatchObject({ stateChecked: false });
    expect(relaxed.body.lines[0].chosen.connectionId).toBe(ids.sun);
    await w.policy({ requireStateLicense: true });
  });

  it('honours a pin, explains a pin that cannot fill, and falls back only when the policy allows', async () => {
    const pinned = await w.plan({ items: [{ productId: ids.glp, manualConnectionId: ids.lake }], patientState: 'CA' });
    expect(pinned.body.lines[0]).toMatchObject({ reason: 'manual', chosen: { connectionId: ids.lake } });
    expect(pinned.body.lines[0].alternatives[0].connectionId).toBe(ids.sun);

    const fallback = await w.plan({ items: [{ productId: ids.tirz, manualConnectionId: ids.lake }], patientState: 'CA' });
    expect(fallback.body.lines[0]).toMatchObject({ reason: 'fallback', chosen: { connectionId: ids.sun } });
    expect(fallback.body.lines[0].explanation).toMatch(/pinned pharmacy Lakeside cannot fill this line: .*stock.*Fell back/);

    await w.policy({ allowFallback: false });
    const strict = await w.plan({ items: [{ productId: ids.tirz, manualConnectionId: ids.lake }], patientState: 'CA' });
    expect(strict.body.lines).toEqual([]);
    expect(strict.body.unfillable[0]).toMatchObject({ reason: 'manual_connection_ineligible' });
    expect(strict.body.unfillable[0].explanation).toMatch(/does not allow fallback/);
    await w.policy({ allowFallback: true });
  });

  it('lists an inactive product as unfillable', async () => {
    const res = await w.plan({ items: [{ productId: ids.idle }] });
    expect(res.body.unfillable[0]).toMatchObject({ reason: 'product_inactive' });
  });

  it('404s, naming the param, for products, pins and patients of another tenant or mode', async () => {
    const cases: [unknown, string][] = [
      [{ items: [{ productId: ids.glp }, { productId: ids.foreignProduct }] }, 'items.1.productId'],
      [{ items: [{ productId: 'prd_01h00000000000000000000000' }] }, 'items.0.productId'],
      [{ items: [{ productId: ids.glp, manualConnectionId: (await catalogWorld(app, t.liveKey).pharmacy('Live', ['CA'])).id }] }, 'items.0.manualConnectionId'],
      [{ items: [{ productId: ids.glp }], patientId: ids.livePatient }, 'patientId'],
    ];
    for (const [body, param] of cases) {
      const res = await w.plan(body);
      expectEnvelope(res, 404, 'not_found');
      expect(res.body.error.param).toBe(param);
    }
    expectEnvelope(await catalogWorld(app, t.liveKey).plan({ items: [{ productId: ids.glp }] }), 404, 'not_found');
  });

  it.each([
    ['no items', { items: [] }, 'items'],
    ['a bad state', { items: [{ productId: 'prd_x' }], patientState: 'Texas' }, 'patientState'],
    ['both patientId and patientState', { items: [{ productId: 'prd_x' }], patientId: 'pat_x', patientState: 'CA' }, 'patientState'],
    ['an unknown field', { items: [{ productId: 'prd_x', qty: 2 }] }, 'items.0.qty'],
  ])('refuses %s with 400', async (_n, body, param) => {
    const res = await w.plan(body);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
  });

  it('is read-only: creates nothing and ignores Idempotency-Key', async () => {
    const tables = ['catalogs', 'catalog_lines', 'routing_policies', 'idempotency_keys', 'events', 'patient_access_log'];
    const before = await Promise.all(tables.map((x) => countRows(app, x)));
    const first = await w.plan({ items: [{ productId: ids.glp }] }, { 'idempotency-key': 'plan-1' });
    const second = await w.plan({ items: [{ productId: ids.tirz }] }, { 'idempotency-key': 'plan-1' });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.lines[0].productId).toBe(ids.tirz);
    expect(await Promise.all(tables.map((x) => countRows(app, x)))).toEqual(before);
  });

  it('needs orders.read', async () => {
    const key = await app.request('POST', '/v1/developer/keys', { key: t.sandboxKey, body: { name: 'Catalog', keyType: 'restricted', scopes: ['catalog.manage'] } });
    expectEnvelope(await catalogWorld(app, key.body.key).plan({ items: [{ productId: ids.glp }] }), 403, 'permission_error');
  });
});

describe('the demo seed', () => {
  it('answers a meaningful plan on a fresh start', async () => {
    const fresh = await startTestApp();
    try {
      const seeded = (await seedDemo(fresh.services.database.db))!;
      const products = (await fresh.request('GET', '/v1/products', { key: seeded.sandboxKey })).body as { id: string; sku: string }[];
      const patients = (await fresh.request('GET', '/v1/patients', { key: seeded.sandboxKey })).body as { id: string; synthetic: boolean; address: { state: string } }[];
      expect(products).toHaveLength(4);
      expect(patients).toHaveLength(2);
      expect(patients.every((p) => p.synthetic)).toBe(true);
      expect((await fresh.request('GET', '/v1/protocols', { key: seeded.sandboxKey })).body).toHaveLength(1);
      const pharmacies = (await fresh.request('GET', '/v1/pharmacies', { key: seeded.sandboxKey })).body as { approvedCatalogId: string | null }[];
      expect(pharmacies).toHaveLength(2);
      expect(pharmacies.every((p) => p.approvedCatalogId)).toBe(true);
      const az = patients.find((p) => p.address.state === 'AZ')!;
      const plan = await fresh.request('POST', '/v1/orders/routing/plan', { key: seeded.sandboxKey, body: { items: products.map((p) => ({ productId: p.id })), patientId: az.id } });
      expect(plan.status).toBe(201);
      expect(plan.body.lines.map((l: { chosen: { name: string } }) => l.chosen.name)).toEqual(['Lakeside Pharmacy (simulated)', 'Lakeside Pharmacy (simulated)']);
      expect(plan.body.unfillable.map((u: { reason: string }) => u.reason)).toEqual(['no_qualifying_pharmacy', 'no_qualifying_pharmacy']);
      expect(await seedDemo(fresh.services.database.db)).toBeNull();
    } finally {
      await fresh.close();
    }
  });
});
