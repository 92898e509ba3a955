import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clinic, countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld, providerSession } from './helpers/orders-world';
import { waitFor } from './helpers/webhooks';

let app: TestApp;
let w: Awaited<ReturnType<typeof ordersWorld>>;
let other: Clinic;

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', ORDER_SYNC_INTERVAL_MS: '600000', DISPATCH_GRACE_MS: '600000', WORKER_POLL_MS: '50' });
  // The simulated pharmacies stay at "received" for an hour, so every later status is a callback's doing.
  const slow = { acceptAfterSeconds: 3600, shipAfterSeconds: 7200, deliverAfterSeconds: 10_800 };
  w = await ordersWorld(app, 'Transitions', { alphaSettings: slow, betaSettings: slow });
  other = await createTenantWithKeys(app, 'Stranger');
});
afterAll(async () => app?.close());

const written = async () => ({
  orders: await countRows(app, 'orders'),
  transitions: await countRows(app, 'order_transitions'),
  dispatches: await countRows(app, 'order_dispatches'),
});

async function dispatchKey(orderId: string) {
  const { sql } = await import('drizzle-orm');
  const res = (await app.services.database.db.execute(sql`select idempotency_key, connection_id from order_dispatches where order_id = ${orderId} order by round desc limit 1`)) as unknown as {
    rows: { idempotency_key: string; connection_id: string }[];
  };
  return res.rows[0];
}

function callback(connectionId: string, secret: string, body: Record<string, unknown>, id = `cb_${Math.random().toString(36).slice(2)}`) {
  const raw = JSON.stringify(body);
  const at = new Date();
  const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, raw), 'content-type': 'application/json' };
  return app.request('POST', `/v1/pharmacy-callbacks/${connectionId}`, { rawBody: raw, headers });
}

async function submitted() {
  const order = (await w.create()).body;
  const res = await w.approve(order.id);
  expect(res.body.status).toBe('submitted');
  const d = await dispatchKey(order.id);
  const secret = d.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  const send = (status: string, extra: Record<string, unknown> = {}) => callback(d.connection_id, secret, { idempotencyKey: d.idempotency_key, status, ...extra });
  return { id: order.id as string, connectionId: d.connection_id, send };
}

const status = async (id: string) => (await w.get(id)).body.status as string;

describe('resolve', () => {
  it('moves a draft to pending_approval once the patient is chosen and the flags confirmed', async () => {
    const draft = (await w.create({ patientId: undefined, amberFields: ['items.0.sig'] })).body;
    const kept = await w.act(draft.id, 'resolve', w.key, { patientId: w.patients.ca, confirmAmber: false });
    expect(kept.status).toBe(201);
    expect(kept.body).toMatchObject({ status: 'draft', patientId: w.patients.ca, amberFields: ['items.0.sig'] });
    const done = await w.act(draft.id, 'resolve', w.key, { patientId: w.patients.ca, confirmAmber: true });
    expect(done.body).toMatchObject({ status: 'pending_approval', amberFields: [] });
  });

  it('refuses another tenant’s or mode’s patient (400) and a resolve past approval (409)', async () => {
    const draft = (await w.create({ patientId: undefined })).body;
    const livePatient = await app.request('POST', '/v1/patients', { key: w.liveKey, body: { firstName: 'L', lastName: 'M', dateOfBirth: '1990-01-01', sex: 'male' } });
    const before = await written();
    for (const patientId of [livePatient.body.id, 'pat_01h00000000000000000000000']) {
      const res = await w.act(draft.id, 'resolve', w.key, { patientId, confirmAmber: true });
      expectEnvelope(res, 400, 'validation_error', 'unknown_patient');
      expect(res.body.error.param).toBe('patientId');
    }
    expect(await written()).toEqual(before);
    const { id } = await submitted();
    const late = await w.act(id, 'resolve', w.key, { patientId: w.patients.ca, confirmAmber: true });
    expectEnvelope(late, 409, 'conflict', 'order_status_conflict');
    expect(late.body.error.message).toMatch(/submitted/);
  });
});

describe('approve', () => {
  it('is refused to providers without MFA or a verified NPI, and to developers', async () => {
    const order = (await w.create()).body;
    const noMfa = await createUserAndLogin(app, w.tenantId, { email: `nomfa-${Date.now()}@c.test`, role: 'provider', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
    expectEnvelope(await w.approve(order.id, noMfa.token), 403, 'permission_error', 'mfa_required');
    const unverified = await createUserAndLogin(app, w.tenantId, { email: `unv-${Date.now()}@c.test`, role: 'provider', npi: '1234567893', npiVerified: false, licensedStates: ['CA'] });
    expectEnvelope(await w.approve(order.id, unverified.token), 403, 'permission_error', 'npi_not_verified');
    const dev = await createUserAndLogin(app, w.tenantId, { email: `dev-${Date.now()}@c.test`, role: 'developer' });
    expectEnvelope(await w.approve(order.id, dev.token), 403, 'permission_error');
    expect(await status(order.id)).toBe('pending_approval');
  });

  it('refuses a draft, a submitted and a cancelled order with 409 naming the status', async () => {
    const draft = (await w.create({ patientId: undefined })).body;
    expect((await w.approve(draft.id)).body.error.message).toMatch(/draft/);
    const { id } = await submitted();
    expectEnvelope(await w.approve(id), 409, 'conflict', 'order_status_conflict');
    const cancelled = (await w.create()).body;
    await w.act(cancelled.id, 'cancel');
    expectEnvelope(await w.approve(cancelled.id), 409, 'conflict');
  });

  it('rejects at once when no pharmacy can fill the order, ready for a reroute', async () => {
    const t = await ordersWorld(app, 'Unroutable');
    await app.request('PATCH', `/v1/pharmacies/${t.pharmacies.alpha}`, { key: t.key, body: { status: 'disabled' } });
    await app.request('PATCH', `/v1/pharmacies/${t.pharmacies.beta}`, { key: t.key, body: { status: 'disabled' } });
    const order = (await t.create()).body;
    const res = await t.approve(order.id);
    expect(res.body).toMatchObject({ status: 'rejected', rejectionReasonCode: 'no_qualifying_pharmacy' });
    expect(res.body.approvedAt).toBeTruthy();
    expect(await countRows(app, `order_dispatches where order_id = '${order.id}'`)).toBe(0);
    const events = (await app.request('GET', '/v1/developer/events?type=order.rejected', { key: t.key })).body.data;
    expect(events.map((e: { data: unknown }) => e.data)).toEqual([{ orderId: order.id, pharmacyConnectionId: null, status: 'rejected', reasonCode: 'no_qualifying_pharmacy' }]);
  });
});

describe('pharmacy callbacks and the forward-only lifecycle', () => {
  it('accepted, shipped (tracking) and delivered move the order; each event once', async () => {
    const o = await submitted();
    expect((await o.send('accepted')).body).toEqual({ received: true, outcome: 'applied' });
    expect((await o.send('accepted')).body.outcome).toBe('duplicate');
    await o.send('shipped', { tracking: { carrier: 'UPS', number: '1Z999AA10123456784', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' }, estimatedDelivery: '2026-12-01' });
    const shipped = (await w.get(o.id)).body;
    expect(shipped.status).toBe('shipped');
    expect(shipped.shipment).toMatchObject({ carrier: 'UPS', trackingNumber: '1Z999AA10123456784', trackingUrl: expect.stringContaining('ups.com'), estimatedDelivery: '2026-12-01' });
    expect((await o.send('accepted')).body.outcome).toBe('stale');
    await o.send('delivered');
    const delivered = (await w.get(o.id)).body;
    expect(delivered.status).toBe('delivered');
    expect(delivered.shipment.deliveredAt).toBeTruthy();
    expect((await o.send('shipped')).body.outcome).toBe('stale');
    expect(delivered.timeline.slice(-3).map((t: { to: string; actorKind: string; actorId: string }) => [t.to, t.actorKind, t.actorId])).toEqual([
      ['accepted', 'pharmacy', o.connectionId],
      ['shipped', 'pharmacy', o.connectionId],
      ['delivered', 'pharmacy', o.connectionId],
    ]);
    const events = (await app.request('GET', '/v1/developer/events?limit=100', { key: w.key })).body.data as { type: string; data: Record<string, string> }[];
    const mine = events.filter((e) => e.data.orderId === o.id);
    expect(mine.map((e) => e.type).sort()).toEqual(['order.delivered', 'order.routed', 'order.shipped', 'order.submitted']);
    for (const e of mine) expect(Object.keys(e.data).sort()).toEqual(['orderId', 'pharmacyConnectionId', 'status']);
  });

  it('a delivered callback for a submitted order walks every step; an out-of-order shipped changes nothing', async () => {
    const o = await submitted();
    await o.send('delivered', { tracking: { carrier: 'USPS', number: '9400100000000000000000' } });
    const order = (await w.get(o.id)).body;
    expect(order.timeline.map((t: { to: string }) => t.to).slice(-4)).toEqual(['submitted', 'accepted', 'shipped', 'delivered']);
    expect((await o.send('shipped')).body.outcome).toBe('stale');
    expect(await status(o.id)).toBe('delivered');
  });

  it('a rejection carries the pharmacy’s reason code to the order and the event', async () => {
    const o = await submitted();
    await o.send('rejected', { reasonCode: 'license_hold' });
    const order = (await w.get(o.id)).body;
    expect(order).toMatchObject({ status: 'rejected', rejectionReasonCode: 'license_hold' });
    const events = (await app.request('GET', '/v1/developer/events?type=order.rejected', { key: w.key })).body.data;
    // Not a code of the protocol's vocabulary: the event says `other`, with the pharmacy's own code beside it.
    expect(events[0].data).toEqual({ orderId: o.id, pharmacyConnectionId: o.connectionId, status: 'rejected', reasonCode: 'other', reasonRaw: 'license_hold' });
  });

  it('keeps and counts what cannot be applied; reconciliation is all zeros for a healthy tenant', async () => {
    const t = await ordersWorld(app, 'Reconcile');
    const empty = await app.request('GET', '/v1/orders/reconciliation', { key: t.key });
    expect(empty.body).toMatchObject({ object: 'reconciliation', unmatchedCallbacks: 0, unverifiedCallbacks: 0, malformedCallbacks: 0, stuckSubmitting: [] });
    const unmatched = await callback(t.pharmacies.alpha, t.pharmacies.alphaSecret, { idempotencyKey: 'dsp_nobody', status: 'shipped' });
    expect(unmatched.body).toEqual({ received: true, outcome: 'unmatched' });
    expectEnvelope(await callback(t.pharmacies.alpha, w.pharmacies.alphaSecret, { idempotencyKey: 'dsp_x', status: 'shipped' }), 401, 'authentication_error', 'invalid_signature');
    expectEnvelope(await callback(t.pharmacies.alpha, t.pharmacies.alphaSecret, { idempotencyKey: 'dsp_x', status: 'teleported' }), 400, 'validation_error', 'invalid_callback');
    expectEnvelope(await callback('phc_01h00000000000000000000000', t.pharmacies.alphaSecret, { idempotencyKey: 'x', status: 'shipped' }), 404, 'not_found');
    const report = await app.request('GET', '/v1/orders/reconciliation', { key: t.key });
    expect(report.body).toMatchObject({ unmatchedCallbacks: 1, unverifiedCallbacks: 1, malformedCallbacks: 1 });
    expect((await app.request('GET', '/v1/orders/reconciliation', { key: t.liveKey })).body.unmatchedCallbacks).toBe(0);
  });
});

describe('submit, reroute and cancel', () => {
  it('reroutes a rejected order to the next pharmacy not yet tried, and submit dispatches it there', async () => {
    const o = await submitted();
    await o.send('rejected', { reasonCode: 'out_of_stock' });
    const res = await w.act(o.id, 'reroute');
    expect(res.status).toBe(201);
    const next = o.connectionId === w.pharmacies.alpha ? w.pharmacies.beta : w.pharmacies.alpha;
    expect(res.body).toEqual({ rerouted: true, connectionId: next });
    expect(await status(o.id)).toBe('approved');
    const sent = await w.act(o.id, 'submit');
    expect(sent.body).toMatchObject({ status: 'submitted', pharmacyConnectionId: next });
    expectEnvelope(await w.act(o.id, 'submit'), 409, 'conflict');
    expect(await countRows(app, `order_dispatches where order_id = '${o.id}'`)).toBe(2);
  });

  it('reroute: named pharmacy must qualify and be the caller’s; none left → rerouted false; only from rejected', async () => {
    const o = await submitted();
    expectEnvelope(await w.act(o.id, 'reroute'), 409, 'conflict', 'order_status_conflict');
    await o.send('rejected', { reasonCode: 'closed' });
    const foreign = await app.request('POST', '/v1/pharmacies', { key: other.sandboxKey, body: { name: 'F', adapter: 'simulated', states: ['CA'] } });
    const missing = await w.act(o.id, 'reroute', w.key, { connectionId: foreign.body.id });
    expectEnvelope(missing, 404, 'not_found');
    expect(missing.body.error.param).toBe('connectionId');
    const bare = await app.request('POST', '/v1/pharmacies', { key: w.key, body: { name: 'No catalog', adapter: 'simulated', states: ['CA'] } });
    const ineligible = await w.act(o.id, 'reroute', w.key, { connectionId: bare.body.id });
    expectEnvelope(ineligible, 400, 'validation_error', 'connection_ineligible');
    const first = await w.act(o.id, 'reroute');
    expect(first.body.rerouted).toBe(true);
    await w.act(o.id, 'submit');
    const second = await dispatchKey(o.id);
    const secret = second.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
    await callback(second.connection_id, secret, { idempotencyKey: second.idempotency_key, status: 'rejected', reasonCode: 'closed' });
    expect((await w.act(o.id, 'reroute')).body).toEqual({ rerouted: false, connectionId: second.connection_id });
  });

  it('cancel works from every status but delivered and cancelled, and asks the pharmacy to cancel a dispatched order', async () => {
    const draft = (await w.create({ patientId: undefined })).body;
    const pending = (await w.create()).body;
    for (const id of [draft.id, pending.id]) expect((await w.act(id, 'cancel')).body.status).toBe('cancelled');
    const o = await submitted();
    await o.send('accepted');
    expect((await w.act(o.id, 'cancel')).body.status).toBe('cancelled');
    const { sql } = await import('drizzle-orm');
    const cancelledAt = await waitFor(
      async () => {
        const r = (await app.services.database.db.execute(sql`select cancelled_at from simulated_pharmacy_orders where payload->>'orderId' = ${o.id}`)) as unknown as { rows: { cancelled_at: unknown }[] };
        return r.rows[0]?.cancelled_at;
      },
      { timeoutMs: 30_000, what: 'the worker’s cancel job to cancel the order at the pharmacy' },
    );
    expect(cancelledAt).toBeTruthy();
    expectEnvelope(await w.act(o.id, 'cancel'), 400, 'validation_error', 'order_not_cancellable');
    const d = await submitted();
    await d.send('delivered');
    const res = await w.act(d.id, 'cancel');
    expectEnvelope(res, 400, 'validation_error', 'order_not_cancellable');
    expect(res.body.error.message).toMatch(/delivered/);
  });
});

describe('tenancy, mode and input', () => {
  it('404s another tenant’s and the other mode’s order on every route, changing nothing', async () => {
    const { id } = await submitted();
    const stranger = await providerSession(app, other.tenantId, ['CA']);
    const before = await written();
    for (const key of [other.sandboxKey, w.liveKey]) {
      expectEnvelope(await w.get(id, key), 404, 'not_found');
      for (const action of ['resolve', 'submit', 'reroute', 'cancel']) {
        expectEnvelope(await w.act(id, action, key, action === 'resolve' ? { patientId: w.patients.ca, confirmAmber: true } : {}), 404, 'not_found');
      }
    }
    expectEnvelope(await w.approve(id, stranger.token), 404, 'not_found');
    expect(await written()).toEqual(before);
    expect(await status(id)).toBe('submitted');
  });

  it.each([
    ['no items', { items: [] }, 'items'],
    ['quantity 0', { items: [{ productId: 'P', quantity: 0, sig: 'x' }] }, 'items.0.quantity'],
    ['a string quantity', { items: [{ productId: 'P', quantity: '1', sig: 'x' }] }, 'items.0.quantity'],
    ['an unknown product', { items: [{ productId: 'prd_01h00000000000000000000000', quantity: 1, sig: 'x' }] }, 'items.0.productId'],
    ['an unknown field', { rush: true }, 'rush'],
    ['a bad source', { source: 'fax' }, 'source'],
    ['a bad priority', { priority: 'asap' }, 'priority'],
  ])('refuses %s with 400 and writes nothing', async (_n, body, param) => {
    const fix = (b: Record<string, unknown>) =>
      JSON.parse(JSON.stringify(b).replaceAll('"P"', JSON.stringify(w.products.glp))) as Record<string, unknown>;
    const before = await written();
    const res = await w.create(fix(body));
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
    expect(await written()).toEqual(before);
  });

  it('answers a second foreignOrderId from the same source with 409 naming the first order', async () => {
    const first = await w.create({ foreignOrderId: 'shop-1001', source: 'store' });
    const before = await written();
    const again = await w.create({ foreignOrderId: 'shop-1001', source: 'store' });
    expectEnvelope(again, 409, 'conflict', 'duplicate_foreign_order');
    expect(again.body.error.resource_id).toBe(first.body.id);
    expect(await written()).toEqual(before);
    expect((await w.create({ foreignOrderId: 'shop-1001', source: 'import' })).status).toBe(201);
  });

  it('lists newest first with a status filter and cursor paging, own tenant and mode only', async () => {
    const page = await app.request('GET', '/v1/orders?limit=2', { key: w.key });
    expect(page.body).toHaveLength(2);
    expect(page.body[0].id > page.body[1].id).toBe(true);
    const next = await app.request('GET', `/v1/orders?limit=2&starting_after=${page.body[1].id}`, { key: w.key });
    expect(next.body[0].id < page.body[1].id).toBe(true);
    const drafts = await app.request('GET', '/v1/orders?status=draft', { key: w.key });
    expect(drafts.body.length).toBeGreaterThan(0);
    expect(drafts.body.every((o: { status: string }) => o.status === 'draft')).toBe(true);
    expect((await app.request('GET', '/v1/orders', { key: other.sandboxKey })).body).toEqual([]);
    for (const q of ['limit=0', 'limit=101', 'status=lost']) expectEnvelope(await app.request('GET', `/v1/orders?${q}`, { key: w.key }), 400, 'validation_error');
  });
});

describe('PHI on the order read', () => {
  it('shows the patient only to callers who may read patients, and logs each disclosure', async () => {
    const order = (await w.create()).body;
    const dev = await createUserAndLogin(app, w.tenantId, { email: `phi-dev-${Date.now()}@c.test`, role: 'developer' });
    const before = await countRows(app, `patient_access_log where patient_id = '${w.patients.ca}'`);
    const hidden = await w.get(order.id, dev.token);
    expect(hidden.status).toBe(200);
    expect(hidden.body.patient).toBeNull();
    expect(hidden.text).not.toContain('PlantednameCA');
    expect(await countRows(app, `patient_access_log where patient_id = '${w.patients.ca}'`)).toBe(before);
    const shown = await w.get(order.id);
    expect(shown.body.patient.lastName).toBe('PlantednameCA');
    expect(await countRows(app, `patient_access_log where patient_id = '${w.patients.ca}'`)).toBe(before + 1);
  });
});
