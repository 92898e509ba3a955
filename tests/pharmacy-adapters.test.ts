import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPharmacy, type TestPharmacy } from '@/scripts/test-pharmacy';
import { pharmacyAdapter, CallbackRejected, PharmacyUnavailable, type DispatchOrder } from '@/server/integrations/pharmacies';
import { simulatedState } from '@/server/integrations/pharmacies/simulated';
import { simulatedBook } from '@/server/domain/pharmacies/simulated-book';
import { ZSimulatedSettings } from '@/server/integrations/pharmacies/settings';
import { catalogWorld } from './helpers/catalog-world';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';

let app: TestApp;
let tenant: Clinic;
let pharmacy: TestPharmacy;
const policy = { allowLocalhost: true };

const ORDER: DispatchOrder = {
  orderId: 'ord_test',
  livemode: true,
  items: [{ productId: 'prd_1', sku: 'GLP', itemCode: 'X-1', quantity: 1, sig: 'Inject weekly', refills: 0 }],
  patient: {
    id: 'pat_1',
    firstName: 'Test',
    lastName: 'Person',
    dateOfBirth: '1990-01-01',
    sex: 'female',
    phone: null,
    email: null,
    address: { line1: '1 Main St', line2: null, city: 'Fresno', state: 'CA', postalCode: '93650', country: 'US' },
  },
  prescriber: { npi: '1234567893', name: 'Dr. Test' },
};

beforeAll(async () => {
  app = await startTestApp();
  tenant = await createTenantWithKeys(app, 'Adapters');
  pharmacy = await startTestPharmacy();
});
afterAll(async () => {
  await pharmacy?.close();
  await app?.close();
});

describe('http adapter against a real local pharmacy', () => {
  let conn: { id: string; livemode: boolean; secret: string; settings: Record<string, unknown>; callbackUrl: string };
  const adapter = () => pharmacyAdapter('http', { book: simulatedBook(app.services.database.db), policy });

  beforeAll(async () => {
    const made = await catalogWorld(app, tenant.liveKey).pharmacy('Remote', ['CA'], { baseUrl: `${pharmacy.url}/api`, timeoutMs: 800 }, { adapter: 'http' });
    pharmacy.secret = made.secret;
    // The orders domain names where this connection's callbacks go (dispatch.ts); the adapter sends it with every order.
    conn = { id: made.id, livemode: true, secret: made.secret, settings: { baseUrl: `${pharmacy.url}/api`, timeoutMs: 800 }, callbackUrl: `http://localhost:3000/v1/pharmacy-callbacks/${made.id}` };
  });

  it('syncs the catalog over a signed GET and loads it as a pending catalog', async () => {
    await catalogWorld(app, tenant.liveKey).product('GLP');
    pharmacy.catalog = [
      { sku: 'GLP', itemCode: 'R-1', priceCents: 1500, stock: 3, etaDays: 2 },
      { sku: 'OTHER', itemCode: 'R-2', priceCents: 1, stock: 1, etaDays: 1 },
    ];
    const res = await app.request('POST', `/v1/pharmacies/${conn.id}/sync-catalog`, { key: tenant.liveKey });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ source: 'sync', status: 'pending', lineCount: 1, skippedCount: 1 });
    expect(pharmacy.requests.at(-1)).toMatchObject({ method: 'GET', path: '/api/catalog', verified: true });
  });

  it('submits once per idempotency key, signed and keyed, and looks the order up', async () => {
    const first = await adapter().submit(conn, ORDER, 'dsp_1');
    const again = await adapter().submit(conn, ORDER, 'dsp_1');
    expect(first).toMatchObject({ idempotencyKey: 'dsp_1', status: 'received', externalId: expect.stringMatching(/^tp_/) });
    expect(again.externalId).toBe(first.externalId);
    expect(pharmacy.orders.size).toBe(1);
    const posts = pharmacy.requests.filter((r) => r.method === 'POST' && r.path === '/api/orders');
    expect(posts.every((r) => r.verified && r.idempotencyKey === 'dsp_1')).toBe(true);
    expect(pharmacy.orders.get('dsp_1')!.body).toMatchObject({ orderId: 'ord_test', items: [{ itemCode: 'X-1' }] });

    expect(await adapter().lookup(conn, 'dsp_1')).toMatchObject({ externalId: first.externalId, status: 'received' });
    expect(await adapter().lookup(conn, 'never-sent')).toBeNull();
  });

  it('cancels a received order; a shipped one stays shipped', async () => {
    await adapter().submit(conn, ORDER, 'dsp_cancel');
    expect((await adapter().cancel(conn, 'dsp_cancel'))?.status).toBe('cancelled');
    await adapter().submit(conn, ORDER, 'dsp_shipped');
    pharmacy.orders.get('dsp_shipped')!.status = 'shipped';
    expect((await adapter().cancel(conn, 'dsp_shipped'))?.status).toBe('shipped');
    expect(await adapter().cancel(conn, 'unknown')).toBeNull();
  });

  it('reports an unreachable, failing, slow or distrustful pharmacy as unavailable', async () => {
    pharmacy.failWith = 500;
    await expect(adapter().submit(conn, ORDER, 'dsp_fail')).rejects.toThrow(/HTTP 500/);
    pharmacy.failWith = null;
    pharmacy.delayMs = 1500;
    await expect(adapter().lookup(conn, 'dsp_1')).rejects.toThrow(/did not answer within 800 ms/);
    pharmacy.delayMs = 0;
    await expect(adapter().submit({ ...conn, secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') }, ORDER, 'dsp_x')).rejects.toBeInstanceOf(PharmacyUnavailable);
    await expect(adapter().submit({ ...conn, settings: { baseUrl: 'http://localhost:1/' } }, ORDER, 'dsp_y')).rejects.toThrow(/could not be reached/);
    const res = await app.request('POST', `/v1/pharmacies/${conn.id}/sync-catalog`, { key: tenant.liveKey });
    pharmacy.failWith = 503;
    const down = await app.request('POST', `/v1/pharmacies/${conn.id}/sync-catalog`, { key: tenant.liveKey });
    pharmacy.failWith = null;
    expect(res.status).toBe(201);
    expectEnvelope(down, 503, 'service_unavailable', 'pharmacy_unavailable');
  });

  it('verifies status callbacks with the connection secret', () => {
    const body = JSON.stringify({ idempotencyKey: 'dsp_1', status: 'shipped', tracking: { carrier: 'UPS', number: '1Z999' } });
    const at = new Date();
    const headers = { 'webhook-id': 'cb_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(conn.secret).sign('cb_1', at, body) };
    expect(adapter().parseCallback(conn, { headers, rawBody: body })).toEqual({
      callbackId: 'cb_1',
      idempotencyKey: 'dsp_1',
      status: 'shipped',
      reasonCode: null,
      tracking: { carrier: 'UPS', number: '1Z999', url: null },
      estimatedDelivery: null,
    });
    expect(() => adapter().parseCallback(conn, { headers, rawBody: body.replace('shipped', 'delivered') })).toThrow(CallbackRejected);
    const badShape = JSON.stringify({ status: 'teleported' });
    const signed = { ...headers, 'webhook-signature': new Webhook(conn.secret).sign('cb_1', at, badShape) };
    expect(() => adapter().parseCallback(conn, { headers: signed, rawBody: badShape })).toThrow(/callback schema/);
  });
});

describe('simulated adapter', () => {
  const adapter = () => pharmacyAdapter('simulated', { book: simulatedBook(app.services.database.db), policy });
  const conn = (settings: Record<string, unknown>) => ({ id: `phc_sim_${Math.random()}`, livemode: false, secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64'), settings });

  it('de-duplicates by idempotency key: one order in its book however often it is sent', async () => {
    const c = conn({});
    const before = await countRows(app, 'simulated_pharmacy_orders');
    const results = await Promise.all(Array.from({ length: 10 }, () => adapter().submit(c, ORDER, 'dsp_same')));
    expect(new Set(results.map((r) => r.externalId)).size).toBe(1);
    expect(await countRows(app, 'simulated_pharmacy_orders')).toBe(before + 1);
    expect(await adapter().lookup(c, 'dsp_other')).toBeNull();
  });

  it('rejects with the scripted reason code, or out_of_stock for listed products', async () => {
    expect(await adapter().submit(conn({ behavior: 'reject', rejectReasonCode: 'license_hold' }), ORDER, 'k1')).toMatchObject({ status: 'rejected', reasonCode: 'license_hold' });
    expect(await adapter().submit(conn({ outOfStock: ['GLP'] }), ORDER, 'k2')).toMatchObject({ status: 'rejected', reasonCode: 'out_of_stock' });
    expect(await adapter().submit(conn({ acceptAfterSeconds: 30 }), ORDER, 'k3')).toMatchObject({ status: 'received' });
  });

  it('tells the same timeline at every lookup: received, accepted, shipped with tracking, delivered', () => {
    const s = ZSimulatedSettings.parse({ acceptAfterSeconds: 10, shipAfterSeconds: 60, deliverAfterSeconds: 300, carrier: 'USPS' });
    const row = { id: 'spo_1', connectionId: 'c', idempotencyKey: 'k', payload: {}, outcome: 'accept' as const, reasonCode: null, receivedAt: new Date('2026-01-01T00:00:00Z'), cancelledAt: null };
    const at = (sec: number) => simulatedState(row, s, new Date(row.receivedAt.getTime() + sec * 1000));
    expect(at(5).status).toBe('received');
    expect(at(10).status).toBe('accepted');
    expect(at(61)).toMatchObject({ status: 'shipped', tracking: { carrier: 'USPS', number: expect.stringMatching(/^SIM\d{18}$/), url: expect.stringContaining('usps.com') } });
    expect(at(300)).toMatchObject({ status: 'delivered', estimatedDelivery: '2026-01-01' });
    expect(at(61).tracking).toEqual(at(400).tracking);
    const cancelled = { ...row, cancelledAt: new Date(row.receivedAt.getTime() + 20_000) };
    expect(simulatedState(cancelled, s, new Date(row.receivedAt.getTime() + 400_000)).status).toBe('cancelled');
    // Each answer says when the script next changes it, so the status sync need not poll in between.
    const after = (sec: number) => new Date(row.receivedAt.getTime() + sec * 1000);
    expect([5, 10, 61, 299, 300].map((sec) => at(sec).nextChangeAt)).toEqual([after(10), after(60), after(300), after(300), null]);
    expect(simulatedState(cancelled, s, after(30)).nextChangeAt).toBeNull();
    expect(simulatedState({ ...row, outcome: 'reject', reasonCode: 'license_hold' }, s, after(1)).nextChangeAt).toBeNull();
  });

  it('cancels before shipping only', async () => {
    const c = conn({ shipAfterSeconds: 0, deliverAfterSeconds: 3600 });
    await adapter().submit(c, ORDER, 'ship-now');
    expect((await adapter().cancel(c, 'ship-now'))?.status).toBe('shipped');
    const slow = conn({});
    await adapter().submit(slow, ORDER, 'slow');
    expect((await adapter().cancel(slow, 'slow'))?.status).toBe('cancelled');
    expect((await adapter().lookup(slow, 'slow'))?.status).toBe('cancelled');
  });
});
