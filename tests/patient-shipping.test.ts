import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import type { AppRouter } from '@/server/api/root';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '@/db/schema';
import { countRows, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld } from './helpers/orders-world';
import { HOLDING, orderIn, type World } from './helpers/portal-orders';
import { asPatient, portalKey, signedIn } from './helpers/portal-world';

/*
 * PATCH /v1/patient/orders/{id}/shipping (DESIGN decision 40): until the order goes to a pharmacy the patient
 * changes where it ships; a new state sends it back to a provider (`shipping_state_changed`, approval cleared),
 * which the clinic sees on the order and in the approval queue; afterwards 409 `order_already_dispatched`. The
 * change, the order's move and its timeline entry, and the access-log entry commit together; refusals write nothing.
 */

let app: TestApp;
let w: World;
let token: string;
const QUINN = { email: 'quinn.ca@plantedmail.test', dateOfBirth: '1971-07-17' };
const OAKLAND = { line1: '1 Harbor Way', line2: 'Apt 4', city: 'Oakland', state: 'CA', postalCode: '94607' };
const AUSTIN = { line1: '500 Congress Ave', city: 'Austin', state: 'TX', postalCode: '78701' };

const written = async () => ({
  transitions: await countRows(app, 'order_transitions'),
  accessLog: await countRows(app, 'patient_access_log'),
  events: await countRows(app, 'events'),
  // Read straight from the table: the API's read would itself write an access-log entry.
  patient: JSON.stringify(((await app.services.database.db.execute(sql`select address, phone, state from patients where id = ${w.patients.ca}`)) as unknown as { rows: unknown[] }).rows),
});
const clinicOrder = async (id: string) => (await app.request('GET', `/v1/orders/${id}`, { key: w.liveKey })).body;
const ship = (id: string, body: unknown) => asPatient(app, token, 'PATCH', `/orders/${id}/shipping`, body);
const restore = () => app.services.database.db.execute(sql`update patients set address = ${JSON.stringify({ ...OAKLAND, country: 'US' })}::jsonb, state = 'CA' where id = ${w.patients.ca}`);

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', TRUST_PROXY: 'loopback', ORDER_SYNC_INTERVAL_MS: '600000' });
  w = await ordersWorld(app, 'Shipping Clinic', { mode: 'live', ...HOLDING });
  token = await signedIn(app, await portalKey(app, w.liveKey), QUINN);
});
afterAll(async () => app?.close());

describe('before the order goes to a pharmacy', () => {
  it('a new address in the same state changes the record and keeps the order where it is', async () => {
    await restore();
    const id = await orderIn(app, w, w.patients.ca, 'pending_approval');
    const before = await countRows(app, 'order_transitions');
    const res = await ship(id, { address: { ...OAKLAND, line1: '2 Harbor Way' }, phone: '(415) 555-0134' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'pending_approval', shippingAddress: { line1: '2 Harbor Way', state: 'CA' }, canChangeShipping: true });
    expect(await countRows(app, 'order_transitions')).toBe(before);
    const record = (await app.request('GET', `/v1/patients/${w.patients.ca}`, { key: w.liveKey })).body;
    expect(record).toMatchObject({ address: { line1: '2 Harbor Way', line2: 'Apt 4', city: 'Oakland', state: 'CA', postalCode: '94607', country: 'US' }, phone: '+14155550134' });
    const log = (await app.request('GET', `/v1/patients/${w.patients.ca}/access-log`, { key: w.liveKey })).body;
    expect(log.find((e: { actorKind: string }) => e.actorKind === 'patient')).toMatchObject({ action: 'update', requestId: res.headers.get('x-request-id') });
  });

  it.each(['pending_approval', 'approved'] as const)('a move to another state sends a %s order back to the provider with shipping_state_changed', async (status) => {
    await restore();
    const id = await orderIn(app, w, w.patients.ca, status);
    const res = await ship(id, { address: AUSTIN });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'pending_approval', statusLabel: 'Waiting for provider review', shippingAddress: { state: 'TX', city: 'Austin' } });
    expect(res.body.timeline.at(-1)).toMatchObject({ status: 'pending_approval', note: expect.stringContaining('another state') });
    const order = await clinicOrder(id);
    expect(order).toMatchObject({ status: 'pending_approval', approvedAt: null, approvedBy: null, patient: { state: 'TX' } });
    expect(order.timeline.at(-1)).toMatchObject({ from: status, to: 'pending_approval', actorKind: 'patient', actorId: w.patients.ca, reasonCode: 'shipping_state_changed' });
    // The provider's approval queue in the console says why it is back; licensed only in CA, they cannot approve it for TX.
    const consoleApi = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${w.provider.token}`, 'x-mode': 'live' } })] });
    const queue = await consoleApi.orders.approvalQueue.query({ limit: 100 });
    expect(queue.orders.find((o) => o.id === id)).toMatchObject({ returnedBecause: 'shipping_state_changed', patient: { state: 'TX' } });
    expect((await w.approve(id)).status).toBe(403);
  });

  it('a draft stays a draft, with the reason on its timeline', async () => {
    await restore();
    const created = await w.create({ patientId: w.patients.ca, amberFields: ['sig'] });
    expect(created.body.status, created.text).toBe('draft');
    const res = await ship(created.body.id, { address: AUSTIN });
    expect(res.body.status, res.text).toBe('draft');
    expect((await clinicOrder(created.body.id)).timeline.at(-1)).toMatchObject({ from: 'draft', to: 'draft', reasonCode: 'shipping_state_changed' });
  });

  it('a new phone ends the consent to texts given for the old one', async () => {
    await restore();
    await app.services.database.db.execute(sql`update patients set phone = '+15555550100', sms_consent_at = now(), notify_sms = true where id = ${w.patients.ca}`);
    const id = await orderIn(app, w, w.patients.ca, 'pending_approval');
    expect((await ship(id, { address: OAKLAND, phone: '+15555550100' })).status).toBe(200);
    expect((await asPatient(app, token, 'GET', '/me')).body.notifications).toEqual({ email: true, sms: true, smsAvailable: true });
    expect((await ship(id, { address: OAKLAND, phone: '+15555550199' })).status).toBe(200);
    expect((await asPatient(app, token, 'GET', '/me')).body).toMatchObject({ phone: '+15555550199', notifications: { sms: false, smsAvailable: false } });
  });
});

describe('after the order went to a pharmacy', () => {
  it.each(['submitted', 'shipped', 'rejected'] as OrderStatus[])('a %s order is 409 order_already_dispatched, nothing changed', async (status) => {
    await restore();
    const id = await orderIn(app, w, w.patients.ca, status);
    const before = await written();
    expectEnvelope(await ship(id, { address: AUSTIN }), 409, 'conflict', 'order_already_dispatched');
    expect(await written()).toEqual(before);
    expect((await clinicOrder(id)).status).toBe(status);
  });

  it('a cancelled order is 409 order_cancelled, nothing changed', async () => {
    const id = await orderIn(app, w, w.patients.ca, 'cancelled');
    const before = await written();
    expectEnvelope(await ship(id, { address: AUSTIN }), 409, 'conflict', 'order_cancelled');
    expect(await written()).toEqual(before);
  });
});

describe('refusals', () => {
  it("another patient's order is a 404, nothing changed", async () => {
    const id = await orderIn(app, w, w.patients.tx, 'pending_approval');
    const before = await written();
    expectEnvelope(await ship(id, { address: AUSTIN }), 404, 'not_found');
    expect(await written()).toEqual(before);
  });

  it('malformed, oversized or hostile input is a 400 naming the field, nothing changed', async () => {
    await restore();
    const id = await orderIn(app, w, w.patients.ca, 'pending_approval');
    const before = await written();
    const cases: [unknown, string | undefined][] = [
      [{}, 'address'],
      [{ address: { ...OAKLAND, state: 'ZZ' } }, 'address.state'],
      [{ address: { ...OAKLAND, postalCode: 'ABCDE' } }, 'address.postalCode'],
      [{ address: { ...OAKLAND, line1: 'x'.repeat(201) } }, 'address.line1'],
      [{ address: { ...OAKLAND, line1: 'a\u0000b' } }, 'address.line1'],
      [{ address: { ...OAKLAND, country: 'CA' } }, 'address.country'],
      [{ address: OAKLAND, phone: 'call me' }, 'phone'],
      [{ address: OAKLAND, extra: true }, undefined],
      [{ address: 'Oakland' }, 'address'],
    ];
    for (const [body, param] of cases) {
      const res = await ship(id, body);
      expectEnvelope(res, 400, 'validation_error');
      if (param) expect(res.body.error.param, res.text).toBe(param);
    }
    expect(await written()).toEqual(before);
  });

  it('renders what was sent as data: markup in an address is kept as text, never interpreted', async () => {
    await restore();
    const id = await orderIn(app, w, w.patients.ca, 'pending_approval');
    const res = await ship(id, { address: { ...OAKLAND, line1: '<img src=x onerror=alert(1)>' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.shippingAddress.line1).toBe('<img src=x onerror=alert(1)>');
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it('a clinic API key cannot change shipping here', async () => {
    const id = await orderIn(app, w, w.patients.ca, 'pending_approval');
    expectEnvelope(await app.request('PATCH', `/v1/patient/orders/${id}/shipping`, { key: w.liveKey, body: { address: OAKLAND } }), 401, 'authentication_error', 'patient_session_required');
  });
});
