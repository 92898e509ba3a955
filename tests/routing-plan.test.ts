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
  it('picks the cheapest pharmacy for the whole order by default and explains the choice, alternatives and the ineligible', async () => {
    const res = await w.plan({ items: [{ productId: ids.glp }], patientState: 'CA' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'routing_plan', livemode: false, wholeOrder: true, strategy: 'lowest_cost', patientState: 'CA', stateChecked: true, unfillable: [], totalPriceCents: 18900 });
    expect(res.body).toMatchObject({ reason: 'lowest_cost', pharmacy: { connectionId: ids.sun, name: 'Sunrise', priceCents: 18900, etaDays: 5, stock: 10 } });
    expect(res.body.explanation).toMatch(/cheapest of the 2 pharmacies that can fill every line \(\$189\.00 vs \$215\.00/);
    expect(res.body.lines).toEqual([{ index: 0, productId: ids.glp, quantity: 1, fill: { catalogId: expect.stringMatching(/^cat_/), itemCode: 'S-GLP', unitPriceCents: 18900, priceCents: 18900, etaDays: 5, stock: 10 } }]);
    expect(res.body.alternatives).toEqual([{ rank: 2, connectionId: ids.lake, name: 'Lakeside', priceCents: 21500, etaDays: 2, stock: 3 }]);
    expect(res.body.ineligible).toEqual([{ connectionId: ids.off, name: 'Closed', reason: 'disabled', explanation: expect.any(String), lines: [{ index: 0, productId: ids.glp, reason: 'disabled' }] }]);
  });

  it('prices the whole order: quantities count, and a pharmacy that cannot fill every line is not used for part of it', async () => {
    const res = await w.plan({ items: [{ productId: ids.glp, quantity: 2 }, { productId: ids.tirz, quantity: 3 }], patientState: 'CA' });
    expect(res.body).toMatchObject({ reason: 'lowest_cost', pharmacy: { connectionId: ids.sun, priceCents: 2 * 18900 + 3 * 24900, etaDays: 5, stock: 5 }, totalPriceCents: 2 * 18900 + 3 * 24900, alternatives: [], unfillable: [] });
    expect(res.body.lines.map((l: { fill: { itemCode: string; priceCents: number } }) => [l.fill.itemCode, l.fill.priceCents])).toEqual([['S-GLP', 37800], ['S-TIR', 74700]]);
    // Lakeside is cheaper for TIRZ on paper but has none in stock: the order is not split to use it for GLP.
    expect(res.body.explanation).toMatch(/only pharmacy that can fill every line\. An order is never split across pharmacies: 1 other pharmacy cannot fill every line/);
    expect(res.body.ineligible.find((i: { connectionId: string }) => i.connectionId === ids.lake)).toMatchObject({ reason: 'out_of_stock', lines: [{ index: 1, productId: ids.tirz, reason: 'out_of_stock' }] });
  });

  it('follows the strategy: fastest, then priority list', async () => {
    await w.policy({ strategy: 'fastest' });
    let plan = (await w.plan({ items: [{ productId: ids.glp }], patientState: 'CA' })).body;
    expect(plan).toMatchObject({ reason: 'fastest', pharmacy: { connectionId: ids.lake } });
    expect(plan.explanation).toMatch(/fastest .* \(2 days vs 5\)/);
    await w.policy({ strategy: 'priority', priority: [ids.off, ids.sun, ids.lake] });
    plan = (await w.plan({ items: [{ productId: ids.glp }] })).body;
    expect(plan).toMatchObject({ reason: 'priority', pharmacy: { connectionId: ids.sun } });
    await w.policy({ strategy: 'lowest_cost', priority: [] });
  });

  it('drops pharmacies that do not ship to the patient’s state, out of stock or without the product; lists the lines nobody can fill', async () => {
    const res = await w.plan({ items: [{ productId: ids.glp }, { productId: ids.tirz }, { productId: ids.ndl }], patientId: ids.patientTx });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ patientState: 'TX', pharmacy: null, reason: 'no_qualifying_pharmacy', totalPriceCents: 0, alternatives: [] });
    expect(res.body.explanation).toMatch(/No connected pharmacy can fill 2 of the lines/);
    expect(res.body.lines.map((l: { fill: unknown }) => l.fill)).toEqual([null, null, null]);
    const byId = Object.fromEntries(res.body.ineligible.map((i: { connectionId: string }) => [i.connectionId, i]));
    expect(byId[ids.sun].lines.map((l: { reason: string }) => l.reason)).toEqual(['state_not_served', 'state_not_served', 'not_in_catalog']);
    expect(byId[ids.lake].lines).toEqual([{ index: 1, productId: ids.tirz, reason: 'out_of_stock' }, { index: 2, productId: ids.ndl, reason: 'not_in_catalog' }]);
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

  it('says so when every line can be filled somewhere but no single pharmacy fills them all', async () => {
    // NDL has no approved line anywhere yet: that line alone keeps the order from routing. Once Lakeside
    // carries NDL, each line has a pharmacy (TIRZ at Sunrise, NDL at Lakeside) but none has both.
    const res = await w.plan({ items: [{ productId: ids.glp }, { productId: ids.ndl }], patientState: 'CA' });
    expect(res.body).toMatchObject({ pharmacy: null, reason: 'no_qualifying_pharmacy', unfillable: [{ index: 1, reason: 'no_qualifying_pharmacy' }] });
    const lake = await catalogWorld(app, t.sandboxKey).approvedCatalog(ids.lake, [['GLP', 'L-GLP', 21500, 3, 2], ['TIRZ', 'L-TIR', 19900, 0, 2], ['NDL', 'L-N', 100, 5, 1]]);
    expect(lake.status).toBe('approved');
    const split = await w.plan({ items: [{ productId: ids.tirz }, { productId: ids.ndl }], patientState: 'CA' });
    expect(split.body).toMatchObject({ pharmacy: null, reason: 'no_qualifying_pharmacy', unfillable: [] });
    expect(split.body.explanation).toMatch(/Every line can be filled somewhere, but no single pharmacy can fill every line\. An order is never split/);
    await catalogWorld(app, t.sandboxKey).approvedCatalog(ids.lake, [['GLP', 'L-GLP', 21500, 3, 2], ['TIRZ', 'L-TIR', 19900, 0, 2]]);
  });

  it('skips the state check when the state is unknown or the policy does not require it', async () => {
    const unknown = await w.plan({ items: [{ productId: ids.glp }], patientId: ids.patientNone });
    expect(unknown.body).toMatchObject({ patientState: null, stateChecked: false });
    expect(unknown.body.pharmacy.connectionId).toBe(ids.sun);
    await w.policy({ requireStateLicense: false });
    const relaxed = await w.plan({ items: [{ productId: ids.glp }], patientState: 'TX' });
    expect(relaxed.body).toMatchObject({ stateChecked: false });
    expect(relaxed.body.pharmacy.connectionId).toBe(ids.sun);
    await w.policy({ requireStateLicense: true });
  });

  it('honours a pin for the whole order, explains a pin that cannot fill it, and falls back only when the policy allows', async () => {
    const pinned = await w.plan({ items: [{ productId: ids.glp, manualConnectionId: ids.lake }], patientState: 'CA' });
    expect(pinned.body).toMatchObject({ reason: 'manual', pharmacy: { connectionId: ids.lake } });
    expect(pinned.body.alternatives[0]).toMatchObject({ rank: 2, connectionId: ids.sun });

    // One pinned line pins the order: Lakeside cannot fill TIRZ, so the order falls back as a whole.
    const fallback = await w.plan({ items: [{ productId: ids.glp, manualConnectionId: ids.lake }, { productId: ids.tirz }], patientState: 'CA' });
    expect(fallback.body).toMatchObject({ reason: 'fallback', pharmacy: { connectionId: ids.sun } });
    expect(fallback.body.explanation).toMatch(/pinned pharmacy Lakeside cannot fill every line: .*stock.*Fell back/);

    await w.policy({ allowFallback: false });
    const strict = await w.plan({ items: [{ productId: ids.tirz, manualConnectionId: ids.lake }], patientState: 'CA' });
    expect(strict.body).toMatchObject({ pharmacy: null, reason: 'manual_connection_ineligible', totalPriceCents: 0 });
    expect(strict.body.explanation).toMatch(/does not allow fallback/);
    await w.policy({ allowFallback: true });
  });

  it('refuses pins that name different pharmacies: an order goes whole to one', async () => {
    const res = await w.plan({ items: [{ productId: ids.glp, manualConnectionId: ids.lake }, { productId: ids.tirz, manualConnectionId: ids.sun }] });
    expectEnvelope(res, 400, 'validation_error', 'conflicting_pins');
    expect(res.body.error.param).toBe('items.1.manualConnectionId');
  });

  it('lists an inactive product as unfillable', async () => {
    const res = await w.plan({ items: [{ productId: ids.glp }, { productId: ids.idle }] });
    expect(res.body).toMatchObject({ pharmacy: null, reason: 'product_inactive', totalPriceCents: 0 });
    expect(res.body.unfillable).toEqual([expect.objectContaining({ index: 1, reason: 'product_inactive' })]);
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
    ['a zero quantity', { items: [{ productId: 'prd_x', quantity: 0 }] }, 'items.0.quantity'],
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
      // The GLP-1 products and the hair-loss pair of the demo's intake questionnaires (issue 22).
      expect(products).toHaveLength(6);
      // Two for routing, and the patient portal's demo patient with an order waiting for the demo provider (decisions 39, 40).
      expect(patients).toHaveLength(3);
      expect(patients.every((p) => p.synthetic)).toBe(true);
      const orders = (await fresh.request('GET', '/v1/orders', { key: seeded.sandboxKey })).body as { status: string; patientId: string }[];
      expect(orders).toEqual([expect.objectContaining({ status: 'pending_approval', patientId: patients[0].id })]);
      expect((await fresh.request('GET', '/v1/protocols', { key: seeded.sandboxKey })).body).toHaveLength(3);
      const pharmacies = (await fresh.request('GET', '/v1/pharmacies', { key: seeded.sandboxKey })).body as { approvedCatalogId: string | null }[];
      expect(pharmacies).toHaveLength(2);
      expect(pharmacies.every((p) => p.approvedCatalogId)).toBe(true);
      const az = patients.find((p) => p.address.state === 'AZ')!;
      const plan = await fresh.request('POST', '/v1/orders/routing/plan', { key: seeded.sandboxKey, body: { items: products.map((p) => ({ productId: p.id })), patientId: az.id } });
      expect(plan.status).toBe(201);
      // Lakeside alone ships to AZ; it has no tirzepatide in stock and no needles, so the order routes nowhere.
      expect(plan.body).toMatchObject({ pharmacy: null, reason: 'no_qualifying_pharmacy' });
      const skuOf = new Map(products.map((p) => [p.id, p.sku]));
      expect(plan.body.unfillable.map((u: { productId: string; reason: string }) => [skuOf.get(u.productId), u.reason]).sort()).toEqual([
        ['NDL-31G', 'no_qualifying_pharmacy'],
        ['TIRZ-25', 'no_qualifying_pharmacy'],
      ]);
      const ca = patients.find((p) => p.address.state === 'CA')!;
      const sema = products.find((p) => p.sku === 'SEMA-025')!;
      const glp1 = await fresh.request('POST', '/v1/orders/routing/plan', { key: seeded.sandboxKey, body: { items: [{ productId: sema.id }], patientId: ca.id } });
      expect(glp1.body).toMatchObject({ reason: 'lowest_cost', pharmacy: { name: 'Sunrise Compounding (simulated)', priceCents: 18900 } });
      expect(await seedDemo(fresh.services.database.db)).toBeNull();
    } finally {
      await fresh.close();
    }
  });
});
