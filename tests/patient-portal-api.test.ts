import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { ordersWorld } from './helpers/orders-world';
import { HOLDING, orderIn, TRACKING, type World } from './helpers/portal-orders';
import { asPatient, PORTAL_ORIGIN, portalKey, signedIn } from './helpers/portal-world';

/*
 * What a signed-in patient reads and changes under /v1/patient/ (DESIGN decision 40): their record, orders in plain
 * words with tracking, submissions with outcomes only, notice choices; nobody else's anything (404); every read in
 * their access log with actor kind `patient`, which the clinic reads on the patient's page.
 */

const QUINN = { dateOfBirth: '1971-07-17' };
let app: TestApp;
let w: World;
let other: World;
let embedKey: string;
let token: string;
let shippedId: string;
let pendingId: string;
let neighbourOrder: string;
let otherClinicOrder: string;
let sandboxOrder: string;
const email = 'quinn.ca@plantedmail.test';

const accessLog = async (patientId: string) => (await app.request('GET', `/v1/patients/${patientId}/access-log`, { key: w.liveKey })).body as { action: string; actorKind: string; actorId: string; requestId: string }[];

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', TRUST_PROXY: 'loopback', ORDER_SYNC_INTERVAL_MS: '600000', EMBED_RATE_LIMIT: '100000' });
  w = await ordersWorld(app, 'Portal Clinic', { mode: 'live', ...HOLDING });
  other = await ordersWorld(app, 'Other Clinic', { mode: 'live', ...HOLDING });
  embedKey = await portalKey(app, w.liveKey);
  shippedId = await orderIn(app, w, w.patients.ca, 'shipped');
  pendingId = await orderIn(app, w, w.patients.ca, 'pending_approval');
  neighbourOrder = await orderIn(app, w, w.patients.tx, 'pending_approval');
  otherClinicOrder = await orderIn(app, other, other.patients.ca, 'pending_approval');
  const sandbox = await ordersWorld(app, 'Portal Clinic sandbox');
  sandboxOrder = (await sandbox.create()).body.id;
  token = await signedIn(app, embedKey, { email, ...QUINN });
});
afterAll(async () => app?.close());

describe('GET /v1/patient/me', () => {
  it("answers the patient's contact, shipping and notice choices, and logs the read as the patient's own", async () => {
    const me = await asPatient(app, token, 'GET', '/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body).toEqual({
      object: 'patient_profile',
      livemode: true,
      firstName: 'Quinn',
      lastName: 'PlantednameCA',
      email,
      phone: null,
      shippingAddress: { line1: '9 Elm St', line2: null, city: 'Town', state: 'CA', postalCode: '90001', country: 'US' },
      state: 'CA',
      notifications: { email: true, sms: false, smsAvailable: false },
    });
    const [entry] = await accessLog(w.patients.ca);
    expect(entry).toMatchObject({ action: 'read', actorKind: 'patient', actorId: expect.stringMatching(/^pss_/), requestId: me.headers.get('x-request-id') });
  });
});

describe('GET /v1/patient/orders and /orders/{id}', () => {
  it('lists the patient’s own orders, newest first, in words', async () => {
    const list = await asPatient(app, token, 'GET', '/orders');
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((o: { id: string }) => o.id)).toEqual([pendingId, shippedId]);
    expect(list.body[0]).toMatchObject({ status: 'pending_approval', statusLabel: 'Waiting for provider review', canChangeShipping: true, shipment: null });
    expect(list.body[1]).toMatchObject({ status: 'shipped', statusLabel: 'On its way', canChangeShipping: false });
    expect((await accessLog(w.patients.ca))[0]).toMatchObject({ action: 'list', actorKind: 'patient' });
  });

  it('shows one order with its pharmacy, medications and sig, tracking, next step and timeline; no internal codes', async () => {
    const res = await asPatient(app, token, 'GET', `/orders/${shippedId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      id: shippedId,
      status: 'shipped',
      statusLabel: 'On its way',
      nextStep: expect.stringContaining('tracking'),
      pharmacy: { name: 'Alpha' },
      medications: [{ name: expect.stringContaining('GLP'), quantity: 1, sig: 'Inject 0.25 mg weekly', refills: 0 }],
      shipment: { carrier: 'UPS', trackingNumber: TRACKING.number, trackingUrl: TRACKING.url, estimatedDelivery: '2031-01-15' },
      shippingAddress: { state: 'CA', city: 'Town' },
      canChangeShipping: false,
    });
    expect(res.body.timeline.map((t: { label: string }) => t.label)).toEqual(['Waiting for provider review', 'Approved', 'Sending to the pharmacy', 'At the pharmacy', 'Being filled', 'On its way']);
    for (const internal of ['reasonCode', 'actorId', 'actorKind', 'connectionId', 'pharmacyConnectionId', 'approvedBy', 'routing', 'dispatch']) expect(res.text).not.toContain(internal);
    expect((await accessLog(w.patients.ca))[0]).toMatchObject({ action: 'read', actorKind: 'patient' });
  });

  it("answers 404 for any order not the patient's: a neighbour's, another clinic's, another mode's, an unknown or odd id", async () => {
    const before = await countRows(app, 'patient_access_log');
    for (const id of [neighbourOrder, otherClinicOrder, sandboxOrder, 'ord_00000000000000000000000000', 'not-an-order', "ord_'; drop table orders;--"]) {
      expectEnvelope(await asPatient(app, token, 'GET', `/orders/${encodeURIComponent(id)}`), 404, 'not_found', 'resource_missing');
    }
    // A refused read discloses nothing, so it logs nothing.
    expect(await countRows(app, 'patient_access_log')).toBe(before);
    expectEnvelope(await asPatient(app, token, 'GET', `/orders/${'o'.repeat(101)}`), 400, 'validation_error');
  });

  it('carries no tracking link a pharmacy sent with another scheme than http(s)', async () => {
    const id = await orderIn(app, w, w.patients.ca, 'accepted');
    await app.services.database.db.execute(
      sql`update orders set status = 'shipped', shipment = ${JSON.stringify({ carrier: '<b>Carrier</b>', trackingNumber: 'T1', trackingUrl: 'javascript:alert(1)', estimatedDelivery: null, shippedAt: null, deliveredAt: null })}::jsonb where id = ${id}`,
    );
    const res = await asPatient(app, token, 'GET', `/orders/${id}`);
    expect(res.body.shipment).toMatchObject({ carrier: '<b>Carrier</b>', trackingUrl: null });
  });
});

describe('GET /v1/patient/submissions', () => {
  it('lists the patient’s submissions with reference, date and outcome in words; never hits, flags or notes, never one whose identity is unresolved', async () => {
    await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: true }, weightDocument('weight'));
    const mine = await app.request('POST', '/v1/intake/submissions', { key: w.liveKey, body: { questionnaireKey: 'weight', patientId: w.patients.ca, answers: eligibleAnswers({ dob: QUINN.dateOfBirth, weight: 130 }) } });
    expect(mine.status, mine.text).toBe(201);
    const intakeKey = await portalKey(app, w.liveKey);
    // Someone else gives Quinn's e-mail with another date of birth: flagged, attached to Quinn's chart until someone decides.
    const flagged = await app.request('POST', `/v1/public/intake/${intakeKey}/submissions`, {
      headers: { origin: PORTAL_ORIGIN },
      idempotencyKey: randomUUID(),
      body: { questionnaireKey: 'weight', patient: { name: 'Quinn PlantednameCA', email, dateOfBirth: '1980-04-02', state: 'CA' }, answers: eligibleAnswers() },
    });
    expect(flagged.status, flagged.text).toBe(201);
    const res = await asPatient(app, token, 'GET', '/submissions');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual([
      {
        object: 'patient_submission',
        reference: expect.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/),
        submittedAt: expect.any(String),
        outcome: 'pending_review',
        outcomeLabel: 'Waiting for review',
        nextStep: expect.stringContaining('provider'),
        orderId: null,
      },
    ]);
    for (const internal of ['severe_obesity', 'hits', 'flags', 'reviewNote', 'isub_']) expect(res.text).not.toContain(internal);
  });
});

describe('PATCH /v1/patient/me/notifications', () => {
  it('turns e-mail off and on; texts only with a phone given with consent (409 sms_consent_required, nothing changed)', async () => {
    const off = await asPatient(app, token, 'PATCH', '/me/notifications', { email: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ email: false, sms: false, smsAvailable: false });
    const before = await countRows(app, 'patient_access_log');
    expectEnvelope(await asPatient(app, token, 'PATCH', '/me/notifications', { sms: true }), 409, 'conflict', 'sms_consent_required');
    expect(await countRows(app, 'patient_access_log')).toBe(before);
    await app.services.database.db.execute(sql`update patients set phone = '+15555550100', sms_consent_at = now() where id = ${w.patients.ca}`);
    const both = await asPatient(app, token, 'PATCH', '/me/notifications', { email: true, sms: true });
    expect(both.body).toEqual({ email: true, sms: true, smsAvailable: true });
    expect((await accessLog(w.patients.ca))[0]).toMatchObject({ action: 'update', actorKind: 'patient' });
    expect((await asPatient(app, token, 'GET', '/me')).body.notifications).toEqual({ email: true, sms: true, smsAvailable: true });
  });

  it('refuses bad input with a 400 and changes nothing', async () => {
    const before = (await asPatient(app, token, 'GET', '/me')).body.notifications;
    const log = await countRows(app, 'patient_access_log');
    for (const body of [{}, { email: 'yes' }, { sms: 1 }, { email: true, extra: 1 }, { email: null }, []]) {
      expectEnvelope(await asPatient(app, token, 'PATCH', '/me/notifications', body), 400, 'validation_error');
    }
    expect((await asPatient(app, token, 'GET', '/me')).body.notifications).toEqual(before);
    expect(await countRows(app, 'patient_access_log')).toBe(log + 1);
  });
});

describe('the clinic sees the patient’s own reads', () => {
  it('in the access log API, as actor kind patient with the session as actor', async () => {
    const entries = await accessLog(w.patients.ca);
    const own = entries.filter((e) => e.actorKind === 'patient');
    expect(own.length).toBeGreaterThan(4);
    expect(new Set(own.map((e) => e.actorId)).size).toBe(1);
    // Nobody else's record was touched by the session.
    const neighbour = await accessLog(w.patients.tx);
    expect(neighbour.some((e) => e.actorKind === 'patient')).toBe(false);
  });

  it('and a second patient of another clinic signs in to their own record only', async () => {
    const otherKey = await portalKey(app, other.liveKey);
    const otherToken = await signedIn(app, otherKey, { email, ...QUINN });
    const me = await asPatient(app, otherToken, 'GET', '/me');
    expect(me.body.lastName).toBe('PlantednameCA');
    expect((await asPatient(app, otherToken, 'GET', '/orders')).body.map((o: { id: string }) => o.id)).toEqual([otherClinicOrder]);
    expectEnvelope(await asPatient(app, otherToken, 'GET', `/orders/${shippedId}`), 404, 'not_found');
  });
});
