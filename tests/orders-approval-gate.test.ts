import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogWorld } from './helpers/catalog-world';
import { bookRowsOf, dispatchesOf, query, routedEventsOf } from './helpers/dispatch';
import { createUserAndLogin, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld, providerSession } from './helpers/orders-world';
import { orders } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import { unchangedWithPatient } from '@/server/domain/orders/approval';
import { transition } from '@/server/domain/orders/lifecycle';
import { waitFor } from './helpers/webhooks';

/*
 * Issue 20, item 2: an approval binds to what the provider approved. A dispatch after it (submit after a
 * reroute, the outbox job) checks the patient's identity and state and the lines against the snapshot the
 * approval took, and the approver's licence for the patient's current state; otherwise the order goes
 * back to pending_approval with the reason on its timeline and is never sent.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;
const SLOW = { acceptAfterSeconds: 3600, shipAfterSeconds: 7200, deliverAfterSeconds: 10_800 };

function callback(app: TestApp, connectionId: string, secret: string, body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const id = `cb_${Math.random().toString(36).slice(2)}`;
  const at = new Date();
  const headers = { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, raw), 'content-type': 'application/json' };
  return app.request('POST', `/v1/pharmacy-callbacks/${connectionId}`, { rawBody: raw, headers });
}

/** A CA order approved by the CA-only provider, then rejected by its pharmacy: ready for reroute and submit. */
async function approvedThenRejected(app: TestApp, w: World, patientId?: string, providerToken?: string) {
  const order = (await w.create(patientId ? { patientId } : {})).body;
  const approved = await w.approve(order.id, providerToken);
  expect(approved.status, approved.text).toBe(201);
  const [d] = await query<{ idempotency_key: string; connection_id: string }>(app, sql`select idempotency_key, connection_id from order_dispatches where order_id = ${order.id}`);
  const secret = d.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  expect((await callback(app, d.connection_id, secret, { idempotencyKey: d.idempotency_key, status: 'rejected', reasonCode: 'out_of_stock' })).body.outcome).toBe('applied');
  expect((await w.get(order.id)).body.status).toBe('rejected');
  return order.id as string;
}

const patch = (app: TestApp, w: World, patientId: string, body: Record<string, unknown>) => app.request('PATCH', `/v1/patients/${patientId}`, { key: w.key, body });

/** A new patient of the world's clinic in CA, so tests that change one do not disturb the others. */
async function caPatient(app: TestApp, w: World) {
  const body = { firstName: 'Ada', lastName: 'Approved', dateOfBirth: '1970-01-01', sex: 'female', phone: '+14155550123', address: { line1: '1 Main St', city: 'Fresno', state: 'CA', postalCode: '93650' } };
  const res = await app.request('POST', '/v1/patients', { key: w.key, body });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe('a dispatch after approval (no worker: pharmacy statuses arrive as callbacks)', () => {
  let app: TestApp;
  let w: World;
  let gamma: string;
  beforeAll(async () => {
    app = await startTestApp();
    w = await ordersWorld(app, 'Gate', { alphaSettings: SLOW, betaSettings: SLOW });
    // A pharmacy that ships to NY, so a rerouted order has somewhere to go there.
    const c = catalogWorld(app, w.key);
    gamma = (await c.pharmacy('Gamma', ['NY'], SLOW)).id;
    await c.approvedCatalog(gamma, [['GLP', 'G-GLP', 500, 50, 3], ['NDL', 'G-NDL', 50, 50, 3]]);
  });
  afterAll(async () => app?.close());

  it('reproduction: a CA-only provider’s approval does not carry a rejected order to a different person in NY; it returns to pending_approval', async () => {
    const patientId = await caPatient(app, w);
    const orderId = await approvedThenRejected(app, w, patientId);

    const changed = await patch(app, w, patientId, { firstName: 'Mallory', lastName: 'Else', dateOfBirth: '1990-05-05', address: { line1: '5 Broadway', city: 'New York', state: 'NY', postalCode: '10004' } });
    expect(changed.status, changed.text).toBe(200);
    const order = { id: orderId };
    const rerouted = await w.act(order.id, 'reroute');
    expect(rerouted.body).toEqual({ rerouted: true, connectionId: gamma });

    const submit = await w.act(order.id, 'submit');
    expectEnvelope(submit, 403, 'permission_error', 'approval_stale');
    expect(submit.text).not.toMatch(/Mallory|Else|1990-05-05|Ada|Approved/);
    const after = (await w.get(order.id)).body;
    expect(after).toMatchObject({ status: 'pending_approval', approvedAt: null, approvedBy: null });
    expect(after.timeline.at(-1)).toMatchObject({ from: 'approved', to: 'pending_approval', actorKind: 'system', reasonCode: 'patient_changed_since_approval' });
    // Nothing reached Gamma: one dispatch round (the first pharmacy's), one book entry, no order.routed to Gamma.
    expect(await dispatchesOf(app, order.id)).toHaveLength(1);
    expect(await bookRowsOf(app, order.id)).toHaveLength(1);
    expect(await routedEventsOf(app, order.id, gamma)).toEqual([]);

    // Now it is an unapproved order: submit is the spec's refusal, and the CA-only provider cannot approve it in NY.
    expectEnvelope(await w.act(order.id, 'submit'), 403, 'permission_error', 'order_not_approved');
    expectEnvelope(await w.approve(order.id), 403, 'permission_error', 'provider_not_licensed');
    expect((await w.get(order.id)).body.status).toBe('pending_approval');
  });

  it('each identity field and the state count; a new phone or street in the same state does not', async () => {
    const changes: [Record<string, unknown>, number][] = [
      [{ firstName: 'Other' }, 403],
      [{ lastName: 'Other' }, 403],
      [{ dateOfBirth: '1999-09-09' }, 403],
      [{ sex: 'male' }, 403],
      [{ address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '73301' } }, 403],
      [{ phone: '+14155550199', address: { line1: '7 Oak Ave', city: 'Fresno', state: 'CA', postalCode: '93650' } }, 201],
    ];
    for (const [body, expected] of changes) {
      const patientId = await caPatient(app, w);
      const orderId = await approvedThenRejected(app, w, patientId);
      const order = { id: orderId };
      expect((await patch(app, w, patientId, body)).status).toBe(200);
      expect((await w.act(order.id, 'reroute')).body.rerouted).toBe(true);
      const submit = await w.act(order.id, 'submit');
      expect(submit.status, `${JSON.stringify(body)}: ${submit.text}`).toBe(expected);
      if (expected === 403) {
        expect(submit.body.error.code).toBe('approval_stale');
        expect((await w.get(order.id)).body.timeline.at(-1).reasonCode).toBe('patient_changed_since_approval');
      } else {
        expect(submit.body.status).toBe('submitted');
      }
    }
  });

  it('changed lines after approval need a new approval', async () => {
    const orderId = await approvedThenRejected(app, w);
    await query(app, sql`update orders set items = jsonb_set(items, '{0,quantity}', '9') where id = ${orderId}`);
    expect((await w.act(orderId, 'reroute')).body.rerouted).toBe(true);
    expectEnvelope(await w.act(orderId, 'submit'), 403, 'permission_error', 'approval_stale');
    expect((await w.get(orderId)).body.timeline.at(-1)).toMatchObject({ to: 'pending_approval', reasonCode: 'items_changed_since_approval' });
    expect(await bookRowsOf(app, orderId)).toHaveLength(1);
  });

  it('the approver’s licence is checked again at submit: a state taken away since the approval stops the dispatch', async () => {
    const admin = await createUserAndLogin(app, w.tenantId, { email: `admin-${Date.now()}@gate.test`, role: 'admin' });
    const orderId = await approvedThenRejected(app, w);
    const removed = await app.request('PATCH', `/v1/users/${w.provider.id}`, { key: admin.token, body: { licensedStates: [] } });
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.provider.licensedStates).toEqual([]);
    expect((await w.act(orderId, 'reroute')).body.rerouted).toBe(true);
    const submit = await w.act(orderId, 'submit');
    expectEnvelope(submit, 403, 'permission_error', 'approval_stale');
    expect(submit.body.error.message).toMatch(/not licensed/);
    expect((await w.get(orderId)).body.timeline.at(-1)).toMatchObject({ to: 'pending_approval', reasonCode: 'approver_not_licensed' });
    expect(await bookRowsOf(app, orderId)).toHaveLength(1);
  });

  it('live (metered, so submit runs in one transaction): the withdrawal still commits before the 403', async () => {
    const live = await ordersWorld(app, 'Gate live', { mode: 'live', alphaSettings: SLOW, betaSettings: SLOW });
    const orderId = await approvedThenRejected(app, live);
    expect((await patch(app, live, live.patients.ca, { lastName: 'Changed' })).status).toBe(200);
    expect((await live.act(orderId, 'reroute')).body.rerouted).toBe(true);
    expectEnvelope(await live.act(orderId, 'submit'), 403, 'permission_error', 'approval_stale');
    const after = (await live.get(orderId)).body;
    expect(after).toMatchObject({ status: 'pending_approval', approvedAt: null, livemode: true });
    expect(after.timeline.at(-1).reasonCode).toBe('patient_changed_since_approval');
    expect(await bookRowsOf(app, orderId)).toHaveLength(1);
  });

  it('an approver deactivated since the approval no longer covers a dispatch', async () => {
    const admin = await createUserAndLogin(app, w.tenantId, { email: `admin2-${Date.now()}@gate.test`, role: 'admin' });
    const leaving = await providerSession(app, w.tenantId, ['CA']);
    const orderId = await approvedThenRejected(app, w, undefined, leaving.token);
    expect((await app.request('DELETE', `/v1/users/${leaving.id}`, { key: admin.token })).status).toBe(200);
    expect((await w.act(orderId, 'reroute')).body.rerouted).toBe(true);
    expectEnvelope(await w.act(orderId, 'submit'), 403, 'permission_error', 'approval_stale');
    expect((await w.get(orderId)).body.timeline.at(-1)).toMatchObject({ to: 'pending_approval', reasonCode: 'approver_not_authorized' });
  });
});

describe('the approval’s own move', () => {
  let app: TestApp;
  let w: World;
  beforeAll(async () => {
    app = await startTestApp();
    w = await ordersWorld(app, 'Move', { alphaSettings: SLOW, betaSettings: SLOW });
  });
  afterAll(async () => app?.close());

  it('snapshots what it checked; the move requires the patient unchanged since the read, so a concurrent update makes it write nothing', async () => {
    const patientId = await caPatient(app, w);
    const order = (await w.create({ patientId })).body;
    const read = async () => (await query<{ version: string; patient: string }>(app, sql`select o.xmin::text as version, p.xmin::text as patient from orders o join patients p on p.id = o.patient_id where o.id = ${order.id}`))[0];
    const seen = await read();
    expect((await patch(app, w, patientId, { lastName: 'Meanwhile' })).status).toBe(200);
    const db = app.services.database.db;
    const scope = { tenantId: w.tenantId, livemode: false };
    const row = (await scoped(db, scope).get(orders, order.id))!;
    const provider = { kind: 'user' as const, id: w.provider.id };
    expect(await transition(db, scope, row, ['pending_approval'], 'approved', provider, { guard: unchangedWithPatient(seen.version, seen.patient) })).toBeNull();
    const now = await read();
    expect(await transition(db, scope, row, ['pending_approval'], 'approved', provider, { guard: unchangedWithPatient(now.version, now.patient) })).toMatchObject({ status: 'approved' });

    // Over HTTP: the snapshot holds what the provider approved, and nothing of it reaches the API.
    const other = (await w.create({ patientId })).body;
    const approved = await w.approve(other.id);
    expect(approved.status).toBe(201);
    expect(approved.text).not.toMatch(/Meanwhile|approvalSnapshot/);
    const [{ snapshot }] = await query<{ snapshot: Record<string, unknown> }>(app, sql`select approval_snapshot as snapshot from orders where id = ${other.id}`);
    expect(snapshot).toEqual({ patientId, firstName: 'Ada', lastName: 'Meanwhile', dateOfBirth: '1970-01-01', sex: 'female', state: 'CA', items: other.items });
  });
});

describe('the outbox dispatch job checks the approval too', () => {
  let app: TestApp;
  let w: World;
  beforeAll(async () => {
    // The request leaves the send to the worker, which waits the grace period: time to change the patient.
    app = await startTestApp({ RUN_WORKER: 'true', DISPATCH_INLINE: 'false', DISPATCH_GRACE_MS: '1500', WORKER_POLL_MS: '50' });
    w = await ordersWorld(app, 'Outbox', { alphaSettings: SLOW, betaSettings: SLOW });
  });
  afterAll(async () => app?.close());

  it('a patient changed between the approval and the job’s send: the job sends nothing and the order waits for a new approval', async () => {
    const patientId = await caPatient(app, w);
    const order = (await w.create({ patientId })).body;
    const approving = w.approve(order.id);
    await waitFor(async () => (await w.get(order.id)).body.status === 'submitting', { what: 'the approval to commit' });
    expect((await patch(app, w, patientId, { lastName: 'Switched' })).status).toBe(200);

    const after = await waitFor(async () => {
      const o = (await w.get(order.id)).body;
      return o.status === 'pending_approval' ? o : null;
    }, { what: 'the job to withdraw the approval' });
    expect(after.timeline.at(-1)).toMatchObject({ from: 'submitting', to: 'pending_approval', actorKind: 'system', reasonCode: 'patient_changed_since_approval' });
    expect(after.approvedAt).toBeNull();
    await approving;
    expect(await bookRowsOf(app, order.id)).toEqual([]);
    expect((await dispatchesOf(app, order.id)).map((d) => d.status)).toEqual(['cancelled']);
    expect(await routedEventsOf(app, order.id)).toEqual([]);

    // A provider approves again, the order as it now stands: it is sent, with a new snapshot.
    const again = await w.approve(order.id);
    expect(again.status, again.text).toBe(201);
    expect(['submitting', 'submitted']).toContain(again.body.status);
    await waitFor(async () => (await bookRowsOf(app, order.id)).length === 1, { what: 'the second round to reach the pharmacy' });
  });
});
