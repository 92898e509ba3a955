import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createUserAndLogin, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { orders } from '@/db/schema';
import { newId } from '@/server/lib/ids';
import { ordersWorld } from './helpers/orders-world';

let app: TestApp;
let w: Awaited<ReturnType<typeof ordersWorld>>;

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000' });
  w = await ordersWorld(app);
});
afterAll(async () => app?.close());

describe('create → approve → submitted', () => {
  it('creates pending_approval with a patient, draft without one or with flags', async () => {
    const ready = await w.create();
    expect(ready.status).toBe(201);
    expect(ready.body).toMatchObject({ object: 'order', status: 'pending_approval', source: 'api', priority: 'routine', patientId: w.patients.ca, amberFields: [], approvedAt: null, pharmacyConnectionId: null });
    expect((await w.create({ patientId: undefined })).body.status).toBe('draft');
    expect((await w.create({ amberFields: ['items.0.sig'] })).body.status).toBe('draft');
  });

  it('approve by a licensed provider routes, dispatches once and answers with the submitted order', async () => {
    const order = (await w.create()).body;
    const res = await w.approve(order.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: order.id, status: 'submitted', pharmacyConnectionId: w.pharmacies.alpha });
    expect(res.body.approvedAt).toBeTruthy();
    const detail = await w.get(order.id);
    expect(detail.body.timeline.map((t: { to: string }) => t.to)).toEqual(['pending_approval', 'approved', 'submitting', 'submitted']);
    expect(detail.body.patient.id).toBe(w.patients.ca);
    expect(detail.body.prescriptions[0]).toMatchObject({ productId: w.products.glp, sku: 'GLP', quantity: 1 });
    expect(await countRows(app, `simulated_pharmacy_orders where payload->>'orderId' = '${order.id}'`)).toBe(1);
    const events = await app.request('GET', '/v1/developer/events?type=order.routed', { key: w.key });
    expect(events.body.data[0].data).toEqual({ orderId: order.id, pharmacyConnectionId: w.pharmacies.alpha, status: 'submitted' });
  });

  it('refuses approval from keys, admins, and providers not licensed in the patient’s state', async () => {
    const order = (await w.create({ patientId: w.patients.tx })).body;
    expectEnvelope(await w.approve(order.id, w.key), 403, 'permission_error');
    const admin = await createUserAndLogin(app, w.tenantId, { email: `admin-${Date.now()}@clinic.test`, role: 'admin' });
    expectEnvelope(await w.approve(order.id, admin.token), 403, 'permission_error');
    const res = await w.approve(order.id);
    expectEnvelope(res, 403, 'permission_error', 'provider_not_licensed');
    expect((await w.get(order.id)).body.status).toBe('pending_approval');
  });

  it('submit refuses an order no provider approved with 403 order_not_approved', async () => {
    const order = (await w.create()).body;
    expectEnvelope(await w.act(order.id, 'submit'), 403, 'permission_error', 'order_not_approved');
    const approved = await w.approve(order.id);
    expectEnvelope(await w.act(approved.body.id, 'submit'), 409, 'conflict');
  });

  it('cancel: 201 on a live order, 400 on cancelled or delivered', async () => {
    const order = (await w.create()).body;
    const res = await w.act(order.id, 'cancel');
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('cancelled');
    expectEnvelope(await w.act(order.id, 'cancel'), 400, 'validation_error', 'order_not_cancellable');
  });
});

describe('the monthly order cap (live, free plan: 25)', () => {
  it('refuses approval at the cap with 403 order_cap_reached and leaves the order pending', async () => {
    const live = await ordersWorld(app, 'Capped', { mode: 'live' });
    const at = new Date();
    const routed = Array.from({ length: 24 }, () => ({
      id: newId('order'), tenantId: live.tenantId, livemode: true, status: 'delivered' as const, source: 'api' as const, priority: 'routine' as const,
      items: [], amberFields: [], firstRoutedAt: at, createdAt: at, updatedAt: at,
    }));
    await app.services.database.db.insert(orders).values(routed);
    const last = (await live.create()).body;
    expect((await live.approve(last.id)).body.status).toBe('submitted');
    const usage = await app.request('GET', '/v1/developer/usage', { key: live.key });
    expect(usage.body).toMatchObject({ ordersRouted: 25, orderCapPerMonth: 25, ordersRemaining: 0 });
    const over = (await live.create()).body;
    const res = await live.approve(over.id);
    expectEnvelope(res, 403, 'permission_error', 'order_cap_reached');
    expect((await live.get(over.id)).body.status).toBe('pending_approval');
    expect(await countRows(app, `order_dispatches where order_id = '${over.id}'`)).toBe(0);
    const sandbox = await app.request('POST', '/v1/orders', { key: live.sandboxKey, body: { items: [{ productId: live.products.glp, quantity: 1, sig: 'x' }] } });
    expectEnvelope(sandbox, 400, 'validation_error', 'unknown_product');
  });
});
