import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { freshTotp } from './helpers/totp';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '@/db/schema';
import { newId } from '@/server/lib/ids';
import { catalogWorld } from './helpers/catalog-world';
import { countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, VALID_NPI, type ApiResponse, type TestApp } from './helpers/harness';
import { ordersWorld, providerSession } from './helpers/orders-world';
import { startReceiver, waitFor, type Receiver } from './helpers/webhooks';
import { workerTurns } from './helpers/worker-turns';

/*
 * The order lifecycle over HTTP (SPEC "States and transitions", DESIGN decisions 8–13): every transition
 * of the table and every refusal, tenancy and mode, bad input, lists, status sync by polling the simulated
 * pharmacy, and the PHI boundary. Pharmacy statuses in the worker-less app arrive as signed callbacks, so
 * nothing here depends on timing; the polling tests wait (bounded) for a status, never for a duration.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;
type Action = 'resolve' | 'approve' | 'submit' | 'reroute' | 'cancel';
interface TimelineEntry {
  from: OrderStatus | null;
  to: OrderStatus;
  at: string;
  actorKind: string;
  actorId: string | null;
  reasonCode: string | null;
}

const FAST = { acceptAfterSeconds: 0, shipAfterSeconds: 1, deliverAfterSeconds: 2 };
const STATUSES: OrderStatus[] = ['draft', 'pending_approval', 'approved', 'submitting', 'submitted', 'accepted', 'shipped', 'delivered', 'rejected', 'cancelled'];

async function rows<T>(app: TestApp, query: SQL): Promise<T[]> {
  return ((await app.services.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** The newest dispatch of an order: its id is the idempotency key the pharmacy knows it by. */
async function lastDispatch(app: TestApp, orderId: string) {
  const [d] = await rows<{ id: string; idempotency_key: string; connection_id: string; round: number; status: string; pharmacy_status: string | null }>(
    app,
    sql`select id, idempotency_key, connection_id, round, status, pharmacy_status from order_dispatches where order_id = ${orderId} order by round desc limit 1`,
  );
  return d;
}

/** A status callback signed Standard Webhooks-style with the connection's secret; no bearer. */
function pharmacyCallback(app: TestApp, connectionId: string, secret: string, body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const msgId = `msg_${randomUUID()}`;
  const at = new Date();
  return app.request('POST', `/v1/pharmacy-callbacks/${connectionId}`, {
    rawBody: raw,
    headers: {
      'content-type': 'application/json',
      'webhook-id': msgId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(msgId, at, raw),
    },
  });
}

const secretOf = (w: World, connectionId: string) => (connectionId === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret);

/** The pharmacy the order's newest dispatch went to reports `status` for it. */
async function pharmacySays(app: TestApp, w: World, orderId: string, status: string, extra: Record<string, unknown> = {}) {
  const d = await lastDispatch(app, orderId);
  const res = await pharmacyCallback(app, d.connection_id, secretOf(w, d.connection_id), { idempotencyKey: d.idempotency_key, status, ...extra });
  expect(res.status, res.text).toBe(200);
  return res.body as { received: true; outcome: string };
}

/** The order's jobs still queued (dispatch, sync and pharmacy-cancel jobs all name a dispatch round of it). */
async function jobsOfOrder(app: TestApp, orderId: string) {
  const queued = await rows<{ kind: string; run_at: string | Date }>(
    app,
    sql`select kind, run_at from jobs where payload->>'dispatchId' in (select id from order_dispatches where order_id = ${orderId})`,
  );
  return queued.map((j) => ({ kind: j.kind, due: new Date(j.run_at).getTime() <= Date.now() }));
}

/** Events of one order, oldest first, straight from the durable log. */
async function eventsOf(app: TestApp, orderId: string) {
  return rows<{ type: string; data: Record<string, unknown> }>(app, sql`select type, data from events where data->>'orderId' = ${orderId} order by id`);
}

/** What a refused request must leave untouched: the order as read, its timeline and its dispatches. */
async function snapshot(app: TestApp, w: World, id: string) {
  const order = (await w.get(id)).body;
  return {
    status: order.status,
    updatedAt: order.updatedAt,
    approvedAt: order.approvedAt,
    patientId: order.patientId,
    pharmacyConnectionId: order.pharmacyConnectionId,
    timeline: order.timeline.length,
    dispatches: await countRows(app, `order_dispatches where order_id = '${id}'`),
  };
}

const written = async (app: TestApp) => ({
  orders: await countRows(app, 'orders'),
  transitions: await countRows(app, 'order_transitions'),
  dispatches: await countRows(app, 'order_dispatches'),
});

async function enrollMfa(app: TestApp, token: string) {
  const enroll = await app.request('POST', '/v1/auth/mfa/enroll', { key: token, body: {} });
  const ok = await app.request('POST', '/v1/auth/mfa/verify', { key: token, body: { code: await freshTotp(enroll.body.secret) } });
  if (ok.status !== 200) throw new Error(`mfa failed: ${ok.text}`);
}

const tag = () => Math.random().toString(36).slice(2, 8);

// ---------------------------------------------------------------------------------------------------------
// Without a worker: pharmacy statuses arrive only as signed callbacks, so each status is reached on purpose.
// ---------------------------------------------------------------------------------------------------------

let app: TestApp;
let w: World;
/** Live mode, routed to an http pharmacy that answers 503: approve leaves its orders in `submitting`. */
let stuck: World;
let down: Receiver;

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000' });
  w = await ordersWorld(app, 'Lifecycle');
  stuck = await ordersWorld(app, 'Lifecycle stuck', { mode: 'live' });
  down = await startReceiver(() => ({ status: 503, body: 'down' }));
  const cw = catalogWorld(app, stuck.key);
  const gamma = await cw.pharmacy('Gamma', ['CA', 'TX'], { baseUrl: down.url, timeoutMs: 2000 }, { adapter: 'http' });
  await cw.approvedCatalog(gamma.id, [['GLP', 'G-GLP', 500, 50, 1], ['NDL', 'G-NDL', 50, 50, 1]]);
  for (const id of [stuck.pharmacies.alpha, stuck.pharmacies.beta]) {
    const off = await app.request('PATCH', `/v1/pharmacies/${id}`, { key: stuck.key, body: { status: 'disabled' } });
    if (off.status !== 200) throw new Error(off.text);
  }
});
afterAll(async () => {
  await app?.close();
  await down?.close();
});

/** A fresh order of `w` (or, for `submitting`, of the stuck live world) in the given status. */
async function orderIn(status: OrderStatus): Promise<{ world: World; id: string }> {
  const at = async (s: OrderStatus) => (await orderIn(s)).id;
  switch (status) {
    case 'draft':
      return { world: w, id: (await w.create({ patientId: undefined })).body.id };
    case 'pending_approval':
      return { world: w, id: (await w.create()).body.id };
    case 'submitting': {
      const id = (await stuck.create()).body.id;
      const res = await stuck.approve(id);
      expect(res.body.status, res.text).toBe('submitting');
      return { world: stuck, id };
    }
    case 'submitted': {
      const id = await at('pending_approval');
      const res = await w.approve(id);
      expect(res.body.status, res.text).toBe('submitted');
      return { world: w, id };
    }
    case 'accepted':
    case 'shipped':
    case 'delivered': {
      const id = await at('submitted');
      const tracking = { carrier: 'UPS', number: '1Z999AA10123456784', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' };
      expect((await pharmacySays(app, w, id, status, status === 'accepted' ? {} : { tracking, estimatedDelivery: '2031-01-15' })).outcome).toBe('applied');
      return { world: w, id };
    }
    case 'rejected': {
      const id = await at('submitted');
      expect((await pharmacySays(app, w, id, 'rejected', { reasonCode: 'license_hold' })).outcome).toBe('applied');
      return { world: w, id };
    }
    case 'approved': {
      const id = await at('rejected');
      const res = await w.act(id, 'reroute');
      expect(res.body.rerouted, res.text).toBe(true);
      return { world: w, id };
    }
    case 'cancelled': {
      const id = await at('pending_approval');
      expect((await w.act(id, 'cancel')).status).toBe(201);
      return { world: w, id };
    }
  }
}

function attempt(world: World, id: string, action: Action) {
  if (action === 'approve') return world.approve(id);
  if (action === 'resolve') return world.act(id, 'resolve', world.key, { patientId: world.patients.ca, confirmAmber: true });
  return world.act(id, action);
}

const CONFLICT = [409, 'conflict', 'order_status_conflict'] as const;
const NOT_APPROVED = [403, 'permission_error', 'order_not_approved'] as const;
const NOT_CANCELLABLE = [400, 'validation_error', 'order_not_cancellable'] as const;
type Refusal = readonly [number, string, string];

/** Every (status, action) the spec's table does not allow, and the answer it gets. */
const REFUSALS: Record<OrderStatus, Partial<Record<Action, Refusal>>> = {
  draft: { approve: CONFLICT, submit: NOT_APPROVED, reroute: CONFLICT },
  pending_approval: { submit: NOT_APPROVED, reroute: CONFLICT },
  approved: { resolve: CONFLICT, approve: CONFLICT, reroute: CONFLICT },
  submitting: { resolve: CONFLICT, approve: CONFLICT, submit: CONFLICT, reroute: CONFLICT },
  submitted: { resolve: CONFLICT, approve: CONFLICT, submit: CONFLICT, reroute: CONFLICT },
  accepted: { resolve: CONFLICT, approve: CONFLICT, submit: CONFLICT, reroute: CONFLICT },
  shipped: { resolve: CONFLICT, approve: CONFLICT, submit: CONFLICT, reroute: CONFLICT },
  delivered: { resolve: CONFLICT, approve: CONFLICT, submit: CONFLICT, reroute: CONFLICT, cancel: NOT_CANCELLABLE },
  rejected: { resolve: CONFLICT, approve: CONFLICT, submit: CONFLICT },
  // Never approved, so submit is the approval gate's 403 rather than a status conflict.
  cancelled: { resolve: CONFLICT, approve: CONFLICT, submit: NOT_APPROVED, reroute: CONFLICT, cancel: NOT_CANCELLABLE },
};

describe('every transition the table does not allow is refused and changes nothing', () => {
  it.each(STATUSES)('from %s', async (status) => {
    const { world, id } = await orderIn(status);
    const before = await snapshot(app, world, id);
    expect(before.status).toBe(status);
    for (const [action, [code, type, errorCode]] of Object.entries(REFUSALS[status]) as [Action, Refusal][]) {
      const res = await attempt(world, id, action);
      expectEnvelope(res, code, type, errorCode);
      // 409s and the cancel 400 name the status the order is in.
      if (code !== 403) expect(res.body.error.message, `${action} from ${status}`).toContain(status);
    }
    expect(await snapshot(app, world, id)).toEqual(before);
  });

  it('a cancelled order that had been approved refuses submit with a 409 naming the status', async () => {
    const { id } = await orderIn('submitted');
    expect((await w.act(id, 'cancel')).status).toBe(201);
    const res = await w.act(id, 'submit');
    expectEnvelope(res, 409, 'conflict', 'order_status_conflict');
    expect(res.body.error.message).toContain('cancelled');
  });
});

describe('resolve', () => {
  it('moves a draft to pending_approval once a patient is chosen and the flagged fields confirmed', async () => {
    const draft = (await w.create({ patientId: undefined, amberFields: ['items.0.sig', 'patient'] })).body;
    expect(draft).toMatchObject({ status: 'draft', patientId: null, amberFields: ['items.0.sig', 'patient'] });
    const kept = await w.act(draft.id, 'resolve', w.key, { patientId: w.patients.ca, confirmAmber: false });
    expect(kept.status).toBe(201);
    expect(kept.body).toMatchObject({ id: draft.id, status: 'draft', patientId: w.patients.ca, amberFields: ['items.0.sig', 'patient'] });
    const done = await w.act(draft.id, 'resolve', w.key, { patientId: w.patients.ca, confirmAmber: true });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ status: 'pending_approval', patientId: w.patients.ca, amberFields: [], approvedAt: null });
    const timeline: TimelineEntry[] = (await w.get(draft.id)).body.timeline;
    expect(timeline.map((t) => [t.from, t.to, t.actorKind, t.reasonCode])).toEqual([
      [null, 'draft', 'key', null],
      ['draft', 'draft', 'key', null],
      ['draft', 'pending_approval', 'key', 'amber_confirmed'],
    ]);
  });

  it('a draft with no flagged fields is ready once it has a patient, whatever confirmAmber says', async () => {
    const draft = (await w.create({ patientId: undefined })).body;
    const res = await w.act(draft.id, 'resolve', w.key, { patientId: w.patients.tx, confirmAmber: false });
    expect(res.body).toMatchObject({ status: 'pending_approval', patientId: w.patients.tx });
  });

  it('refuses an unknown, another tenant’s or the other mode’s patient with 400 param patientId, writing nothing', async () => {
    const draft = (await w.create({ patientId: undefined, amberFields: ['x'] })).body;
    const stranger = await ordersWorld(app, 'Resolve stranger');
    const livePatient = await app.request('POST', '/v1/patients', {
      key: w.liveKey,
      body: { firstName: 'Liv', lastName: 'Mode', dateOfBirth: '1980-02-02', sex: 'male', address: { line1: '1 A St', city: 'B', state: 'CA', postalCode: '90001' } },
    });
    expect(livePatient.status).toBe(201);
    const before = { order: await snapshot(app, w, draft.id), ...(await written(app)) };
    for (const patientId of [newId('patient'), stranger.patients.ca, livePatient.body.id]) {
      const res = await w.act(draft.id, 'resolve', w.key, { patientId, confirmAmber: true });
      expectEnvelope(res, 400, 'validation_error', 'unknown_patient');
      expect(res.body.error.param).toBe('patientId');
    }
    expectEnvelope(await w.act(draft.id, 'resolve', w.key, { patientId: w.patients.ca }), 400, 'validation_error');
    expectEnvelope(await w.act(draft.id, 'resolve', w.key, { confirmAmber: true }), 400, 'validation_error');
    expect({ order: await snapshot(app, w, draft.id), ...(await written(app)) }).toEqual(before);
  });
});

describe('approve', () => {
  it('a licensed provider approves: approvedAt set, dispatched once, answered submitted, order.routed with ids and status only', async () => {
    const order = (await w.create()).body;
    const res = await w.approve(order.id);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ id: order.id, status: 'submitted', pharmacyConnectionId: w.pharmacies.alpha });
    expect(Date.parse(res.body.approvedAt)).not.toBeNaN();
    const detail = (await w.get(order.id)).body;
    expect(detail.approvedBy).toBe(w.provider.id);
    expect((detail.timeline as TimelineEntry[]).map((t) => [t.from, t.to, t.actorKind])).toEqual([
      [null, 'pending_approval', 'key'],
      ['pending_approval', 'approved', 'user'],
      ['approved', 'submitting', 'user'],
      ['submitting', 'submitted', 'pharmacy'],
    ]);
    expect(await countRows(app, `order_dispatches where order_id = '${order.id}'`)).toBe(1);
    expect(await countRows(app, `simulated_pharmacy_orders where payload->>'orderId' = '${order.id}'`)).toBe(1);
    const events = await eventsOf(app, order.id);
    expect(events).toEqual([{ type: 'order.routed', data: { orderId: order.id, pharmacyConnectionId: w.pharmacies.alpha, status: 'submitted' } }]);
  });

  it('only a verified, MFA-enrolled provider session may approve: keys, admins, developers and the rest get 403', async () => {
    const order = (await w.create()).body;
    const t = tag();
    const admin = await createUserAndLogin(app, w.tenantId, { email: `admin-${t}@clinic.test`, role: 'admin' });
    const owner = await createUserAndLogin(app, w.tenantId, { email: `owner-${t}@clinic.test`, role: 'owner' });
    const developer = await createUserAndLogin(app, w.tenantId, { email: `dev-${t}@clinic.test`, role: 'developer' });
    const noMfa = await createUserAndLogin(app, w.tenantId, { email: `nomfa-${t}@clinic.test`, role: 'provider', npi: VALID_NPI, npiVerified: true, licensedStates: ['CA'] });
    const unverified = await createUserAndLogin(app, w.tenantId, { email: `unv-${t}@clinic.test`, role: 'provider', npi: VALID_NPI, npiVerified: false, licensedStates: ['CA'] });
    await enrollMfa(app, unverified.token);
    const before = { order: await snapshot(app, w, order.id), ...(await written(app)) };
    const refusals: [string, string | undefined][] = [
      [w.key, 'provider_required'],
      [w.liveKey, undefined],
      [admin.token, 'provider_required'],
      [owner.token, 'provider_required'],
      // A developer session lacks even the orders.write scope.
      [developer.token, undefined],
      [noMfa.token, 'mfa_required'],
      [unverified.token, 'npi_not_verified'],
    ];
    for (const [token, code] of refusals) expectEnvelope(await w.approve(order.id, token), 403, 'permission_error', code);
    expect({ order: await snapshot(app, w, order.id), ...(await written(app)) }).toEqual(before);
    expect(await countRows(app, `events where data->>'orderId' = '${order.id}'`)).toBe(0);
  });

  it('a provider not licensed in the patient’s state gets 403 provider_not_licensed', async () => {
    const order = (await w.create({ patientId: w.patients.tx })).body;
    const before = await snapshot(app, w, order.id);
    const res = await w.approve(order.id);
    expectEnvelope(res, 403, 'permission_error', 'provider_not_licensed');
    expect(await snapshot(app, w, order.id)).toEqual(before);
    const texan = await providerSession(app, w.tenantId, ['TX']);
    expect((await w.approve(order.id, texan.token)).body.status).toBe('submitted');
  });
});

describe('concurrent requests', () => {
  it('three approvals at once: one dispatch, one shipment, the others 409', async () => {
    const order = (await w.create()).body;
    const answers = await Promise.all([w.approve(order.id), w.approve(order.id), w.approve(order.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const res of answers.filter((r) => r.status === 409)) expectEnvelope(res, 409, 'conflict', 'order_status_conflict');
    expect(await countRows(app, `order_dispatches where order_id = '${order.id}'`)).toBe(1);
    expect(await countRows(app, `simulated_pharmacy_orders where payload->>'orderId' = '${order.id}'`)).toBe(1);
    expect((await eventsOf(app, order.id)).map((e) => e.type)).toEqual(['order.routed']);
  });

  it('three creates with one foreignOrderId at once: one order, the others 409 naming it', async () => {
    const before = await countRows(app, 'orders');
    const answers = await Promise.all([1, 2, 3].map(() => w.create({ foreignOrderId: 'race-1', source: 'store' })));
    const created = answers.filter((r) => r.status === 201);
    expect(created).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 201)) {
      expectEnvelope(res, 409, 'conflict', 'duplicate_foreign_order');
      expect(res.body.error.resource_id).toBe(created[0].body.id);
    }
    expect(await countRows(app, 'orders')).toBe(before + 1);
  });
});

describe('submit', () => {
  it('refuses an order no provider approved with 403 order_not_approved, and a dispatched one with 409', async () => {
    for (const status of ['draft', 'pending_approval'] as const) {
      const { id } = await orderIn(status);
      const before = await snapshot(app, w, id);
      expectEnvelope(await w.act(id, 'submit'), 403, 'permission_error', 'order_not_approved');
      expect(await snapshot(app, w, id)).toEqual(before);
    }
    const { id } = await orderIn('submitted');
    const res = await w.act(id, 'submit');
    expectEnvelope(res, 409, 'conflict', 'order_status_conflict');
    expect(res.body.error.message).toContain('submitted');
    expect(await countRows(app, `order_dispatches where order_id = '${id}'`)).toBe(1);
  });
});

describe('reroute', () => {
  let r: World;
  beforeAll(async () => {
    r = await ordersWorld(app, 'Reroute');
  });

  const rejectedAt = async (world: World) => {
    const id = (await world.create()).body.id as string;
    expect((await world.approve(id)).body.status).toBe('submitted');
    expect((await pharmacySays(app, world, id, 'rejected', { reasonCode: 'out_of_stock' })).outcome).toBe('applied');
    return id;
  };

  it('picks the next best pharmacy not yet tried; approval survives; submit dispatches it there once', async () => {
    const id = await rejectedAt(r);
    const rejected = (await r.get(id)).body;
    expect(rejected).toMatchObject({ status: 'rejected', pharmacyConnectionId: r.pharmacies.alpha, rejectionReasonCode: 'out_of_stock' });
    const res = await r.act(id, 'reroute');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ rerouted: true, connectionId: r.pharmacies.beta });
    const approved = (await r.get(id)).body;
    expect(approved).toMatchObject({ status: 'approved', pharmacyConnectionId: r.pharmacies.beta, approvedAt: rejected.approvedAt, rejectionReasonCode: null });
    expect(approved.timeline.at(-1)).toMatchObject({ from: 'rejected', to: 'approved', actorKind: 'key', reasonCode: 'rerouted' });
    const sent = await r.act(id, 'submit');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ status: 'submitted', pharmacyConnectionId: r.pharmacies.beta });
    const d = await lastDispatch(app, id);
    expect(d).toMatchObject({ round: 2, connection_id: r.pharmacies.beta });
    expect(await countRows(app, `simulated_pharmacy_orders where connection_id = '${r.pharmacies.beta}' and idempotency_key = '${d.idempotency_key}'`)).toBe(1);
    expectEnvelope(await r.act(id, 'submit'), 409, 'conflict', 'order_status_conflict');
    expect(await countRows(app, `order_dispatches where order_id = '${id}'`)).toBe(2);
    const types = (await eventsOf(app, id)).map((e) => [e.type, e.data.pharmacyConnectionId]);
    expect(types).toEqual([
      ['order.routed', r.pharmacies.alpha],
      ['order.rejected', r.pharmacies.alpha],
      ['order.routed', r.pharmacies.beta],
    ]);
  });

  it('with every pharmacy tried, answers rerouted false and leaves the order rejected', async () => {
    const id = await rejectedAt(r);
    expect((await r.act(id, 'reroute')).body.rerouted).toBe(true);
    expect((await r.act(id, 'submit')).body.status).toBe('submitted');
    expect((await pharmacySays(app, r, id, 'rejected', { reasonCode: 'license_hold' })).outcome).toBe('applied');
    const before = await snapshot(app, r, id);
    const res = await r.act(id, 'reroute');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ rerouted: false, connectionId: r.pharmacies.beta });
    expect(await snapshot(app, r, id)).toEqual(before);
    // A pharmacy named explicitly may be tried again.
    expect((await r.act(id, 'reroute', r.key, { connectionId: r.pharmacies.alpha })).body).toEqual({ rerouted: true, connectionId: r.pharmacies.alpha });
  });

  it('a named pharmacy that cannot fill the order is 400; another tenant’s or mode’s is 404; nothing changes', async () => {
    const id = await rejectedAt(r);
    const cw = catalogWorld(app, r.key);
    const noCatalog = await cw.pharmacy('No catalog', ['CA']);
    const elsewhere = await cw.pharmacy('Elsewhere', ['NY']);
    await cw.approvedCatalog(elsewhere.id, [['GLP', 'E-GLP', 10, 50, 1]]);
    const stranger = await ordersWorld(app, 'Reroute stranger');
    const liveOne = await catalogWorld(app, r.liveKey).pharmacy('Live', ['CA']);
    const before = { order: await snapshot(app, r, id), ...(await written(app)) };
    for (const connectionId of [noCatalog.id, elsewhere.id]) {
      const res = await r.act(id, 'reroute', r.key, { connectionId });
      expectEnvelope(res, 400, 'validation_error', 'connection_ineligible');
      expect(res.body.error.param).toBe('connectionId');
    }
    for (const connectionId of [stranger.pharmacies.beta, liveOne.id, newId('pharmacyConnection')]) {
      const res = await r.act(id, 'reroute', r.key, { connectionId });
      expectEnvelope(res, 404, 'not_found');
      expect(res.body.error.param).toBe('connectionId');
    }
    expectEnvelope(await r.act(id, 'reroute', r.key, { connectionId: 42 }), 400, 'validation_error');
    expectEnvelope(await r.act(id, 'reroute', r.key, { pharmacy: r.pharmacies.beta }), 400, 'validation_error');
    expect({ order: await snapshot(app, r, id), ...(await written(app)) }).toEqual(before);
    expect((await r.act(id, 'reroute', r.key, { connectionId: r.pharmacies.beta })).body).toEqual({ rerouted: true, connectionId: r.pharmacies.beta });
  });
});

describe('cancel', () => {
  it.each(['draft', 'pending_approval', 'approved', 'submitting', 'submitted', 'accepted', 'shipped', 'rejected'] as const)(
    'cancels a %s order (201, the cancelled order)',
    async (status) => {
      const { world, id } = await orderIn(status);
      const d = await lastDispatch(app, id);
      const res = await world.act(id, 'cancel');
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ id, object: 'order', status: 'cancelled' });
      const order = (await world.get(id)).body;
      expect(order.status).toBe('cancelled');
      expect(order.timeline.at(-1)).toMatchObject({ from: status, to: 'cancelled', actorKind: 'key', reasonCode: 'cancelled_by_clinic' });
      // A dispatched order also gets a cancel request to its pharmacy, through the outbox.
      const dispatched = ['submitting', 'submitted', 'accepted', 'shipped'].includes(status);
      expect(await countRows(app, `jobs where kind = 'order.pharmacy-cancel' and payload->>'dispatchId' = '${d?.id ?? 'none'}'`)).toBe(dispatched ? 1 : 0);
    },
  );

  it.each(['delivered', 'cancelled'] as const)('refuses to cancel a %s order with 400 and changes nothing', async (status) => {
    const { id } = await orderIn(status);
    const before = { order: await snapshot(app, w, id), jobs: await countRows(app, 'jobs') };
    const res = await w.act(id, 'cancel');
    expectEnvelope(res, 400, 'validation_error', 'order_not_cancellable');
    expect(res.body.error.message).toContain(status);
    expect({ order: await snapshot(app, w, id), jobs: await countRows(app, 'jobs') }).toEqual(before);
  });
});

describe('another tenant’s and the other mode’s orders are 404 everywhere', () => {
  it('GET and every POST action answer 404 and change nothing', async () => {
    const stranger = await ordersWorld(app, 'Stranger');
    const livePro = { token: w.provider.token, headers: { 'x-mode': 'live' } };
    const subjects: Record<'get' | Action, string> = {
      get: (await orderIn('submitted')).id,
      resolve: (await orderIn('draft')).id,
      approve: (await orderIn('pending_approval')).id,
      submit: (await orderIn('approved')).id,
      reroute: (await orderIn('rejected')).id,
      cancel: (await orderIn('pending_approval')).id,
    };
    const before: Record<string, unknown> = {};
    for (const id of Object.values(subjects)) before[id] = await snapshot(app, w, id);
    const counts = await written(app);
    const bodyFor = (action: Action) => (action === 'resolve' ? { patientId: w.patients.ca, confirmAmber: true } : action === 'reroute' ? { connectionId: w.pharmacies.beta } : {});

    const seen: ApiResponse[] = [];
    for (const key of [stranger.key, w.liveKey]) {
      seen.push(await app.request('GET', `/v1/orders/${subjects.get}`, { key }));
      for (const action of ['resolve', 'submit', 'reroute', 'cancel'] as const) {
        seen.push(await app.request('POST', `/v1/orders/${subjects[action]}/${action}`, { key, body: bodyFor(action) }));
      }
    }
    // Approval needs a provider: the other tenant's, and this tenant's own provider acting in live mode.
    seen.push(await stranger.approve(subjects.approve));
    seen.push(await app.request('POST', `/v1/orders/${subjects.approve}/approve`, { key: livePro.token, body: {}, headers: livePro.headers }));
    seen.push(await app.request('GET', `/v1/orders/${subjects.get}`, { key: livePro.token, headers: livePro.headers }));
    for (const res of seen) expectEnvelope(res, 404, 'not_found');
    expect(seen).toHaveLength(13);

    for (const [id, snap] of Object.entries(before)) expect(await snapshot(app, w, id)).toEqual(snap);
    expect(await written(app)).toEqual(counts);
    // The stranger's own order is equally invisible from here.
    const theirs = (await stranger.create()).body;
    expectEnvelope(await w.get(theirs.id), 404, 'not_found');
    expectEnvelope(await w.act(theirs.id, 'cancel'), 404, 'not_found');
    expect((await stranger.get(theirs.id)).body.status).toBe('pending_approval');
  });

  it('an order id that exists nowhere is 404 on every route', async () => {
    const ghost = newId('order');
    expectEnvelope(await w.get(ghost), 404, 'not_found');
    for (const action of ['resolve', 'submit', 'reroute', 'cancel'] as const) {
      expectEnvelope(await w.act(ghost, action, w.key, action === 'resolve' ? { patientId: w.patients.ca, confirmAmber: true } : {}), 404, 'not_found');
    }
    expectEnvelope(await w.approve(ghost), 404, 'not_found');
  });
});

describe('bad input is a 400 envelope and writes nothing', () => {
  let b: World;
  let inactive: string;
  let liveProduct: string;
  beforeAll(async () => {
    b = await ordersWorld(app, 'Bad input');
    const cw = catalogWorld(app, b.key);
    inactive = (await cw.product('OLD')).id;
    const off = await app.request('PATCH', `/v1/products/${inactive}`, { key: b.key, body: { active: false } });
    expect(off.status, off.text).toBe(200);
    liveProduct = (await catalogWorld(app, b.liveKey).product('GLP')).id;
  });

  const line = (extra: Record<string, unknown> = {}) => ({ productId: b.products.glp, quantity: 1, sig: 'Inject 0.25 mg weekly', ...extra });
  const cases: [string, () => Record<string, unknown>, string | undefined, string?][] = [
    ['empty items', () => ({ items: [] }), 'items'],
    ['missing items', () => ({ items: undefined }), 'items'],
    ['quantity 0', () => ({ items: [line({ quantity: 0 })] }), 'items.0.quantity'],
    ['a string quantity', () => ({ items: [line({ quantity: '1' })] }), 'items.0.quantity'],
    ['a fractional quantity', () => ({ items: [line({ quantity: 1.5 })] }), 'items.0.quantity'],
    ['an empty sig', () => ({ items: [line({ sig: '  ' })] }), 'items.0.sig'],
    ['too many refills', () => ({ items: [line({ refills: 13 })] }), 'items.0.refills'],
    ['an unknown product', () => ({ items: [line({ productId: newId('product') })] }), 'items.0.productId', 'unknown_product'],
    ['the other mode’s product', () => ({ items: [line(), line({ productId: liveProduct })] }), 'items.1.productId', 'unknown_product'],
    ['an inactive product', () => ({ items: [line({ productId: inactive })] }), 'items.0.productId', 'product_inactive'],
    ['an unknown field', () => ({ rush: true }), 'rush', 'unknown_parameter'],
    ['an unknown item field', () => ({ items: [line({ color: 'red' })] }), 'items.0.color', 'unknown_parameter'],
    ['a bad source', () => ({ source: 'fax' }), 'source'],
    ['a bad priority', () => ({ priority: 'asap' }), 'priority'],
    ['an unknown patient', () => ({ patientId: newId('patient') }), 'patientId', 'unknown_patient'],
    ['the other mode’s patient', () => ({ patientId: 'LIVE' }), 'patientId', 'unknown_patient'],
    ['an empty foreignOrderId', () => ({ foreignOrderId: '' }), 'foreignOrderId'],
  ];

  it.each(cases)('refuses %s', async (_name, body, param, code) => {
    let payload = body();
    if (payload.patientId === 'LIVE') {
      const p = await app.request('POST', '/v1/patients', { key: b.liveKey, body: { firstName: 'L', lastName: 'M', dateOfBirth: '1990-01-01', sex: 'male' } });
      payload = { ...payload, patientId: p.body.id };
    }
    const before = await written(app);
    const res = await b.create(payload);
    expectEnvelope(res, 400, 'validation_error', code);
    if (param) expect(res.body.error.param).toBe(param);
    expect(await written(app)).toEqual(before);
  });

  it('refuses a body that is not JSON, or not sent as JSON', async () => {
    const before = await written(app);
    expectEnvelope(await app.request('POST', '/v1/orders', { key: b.key, rawBody: '{"items": [', headers: { 'content-type': 'application/json' } }), 400, 'validation_error', 'invalid_json');
    const form = await app.request('POST', '/v1/orders', { key: b.key, rawBody: 'items=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBeGreaterThanOrEqual(400);
    expect(form.status).toBeLessThan(500);
    expect(await written(app)).toEqual(before);
  });

  it('a second foreignOrderId from the same source is 409 naming the first order; another source or mode is fine', async () => {
    const first = await b.create({ foreignOrderId: 'shop-1001', source: 'store' });
    expect(first.status).toBe(201);
    expect(first.body.foreignOrderId).toBe('shop-1001');
    const before = await written(app);
    for (const body of [{ foreignOrderId: 'shop-1001', source: 'store' }, { foreignOrderId: ' shop-1001 ', source: 'store', patientId: undefined }]) {
      const again = await b.create(body);
      expectEnvelope(again, 409, 'conflict', 'duplicate_foreign_order');
      expect(again.body.error.resource_id).toBe(first.body.id);
    }
    expect(await written(app)).toEqual(before);
    const otherSource = await b.create({ foreignOrderId: 'shop-1001', source: 'import' });
    expect(otherSource.status).toBe(201);
    const otherMode = await app.request('POST', '/v1/orders', { key: b.liveKey, body: { items: [{ productId: liveProduct, quantity: 1, sig: 'x' }], foreignOrderId: 'shop-1001', source: 'store' } });
    expect(otherMode.status, otherMode.text).toBe(201);
    const stranger = await ordersWorld(app, 'Foreign stranger');
    expect((await stranger.create({ foreignOrderId: 'shop-1001', source: 'store' })).status).toBe(201);
    expect(new Set([first.body.id, otherSource.body.id, otherMode.body.id]).size).toBe(3);
  });
});

describe('GET /orders', () => {
  it('lists newest first, filters by status, pages with limit and starting_after, and shows only its tenant and mode', async () => {
    const l = await ordersWorld(app, 'Lists');
    const ids: string[] = [];
    for (const body of [{ patientId: undefined }, {}, { patientId: undefined }, {}, {}]) ids.push((await l.create(body)).body.id);
    expect((await l.act(ids[4], 'cancel')).status).toBe(201);
    const newest = [...ids].reverse();
    const list = (q = '', key = l.key) => app.request('GET', `/v1/orders${q}`, { key });

    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body.map((o: { id: string }) => o.id)).toEqual(newest);
    expect(all.body[0]).toMatchObject({ object: 'order', status: 'cancelled' });
    for (const o of all.body) expect(o).not.toHaveProperty('patient');

    expect((await list('?status=draft')).body.map((o: { id: string }) => o.id)).toEqual([ids[2], ids[0]]);
    expect((await list('?status=pending_approval')).body.map((o: { id: string }) => o.id)).toEqual([ids[3], ids[1]]);
    expect((await list('?status=delivered')).body).toEqual([]);

    const paged: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await list(`?limit=2${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.length).toBeLessThanOrEqual(2);
      if (page.body.length === 0) break;
      paged.push(...page.body.map((o: { id: string }) => o.id));
      cursor = page.body.at(-1).id;
    }
    expect(paged).toEqual(newest);
    expect((await list('?limit=1')).body.map((o: { id: string }) => o.id)).toEqual([newest[0]]);
    expect((await list('?limit=100')).body).toHaveLength(5);
    expect((await list(`?status=draft&limit=1&starting_after=${ids[2]}`)).body.map((o: { id: string }) => o.id)).toEqual([ids[0]]);

    for (const q of ['?limit=0', '?limit=101', '?limit=-1', '?limit=abc', '?status=lost']) expectEnvelope(await list(q), 400, 'validation_error');

    const stranger = await createTenantWithKeys(app, 'List stranger');
    expect((await list('', stranger.sandboxKey)).body).toEqual([]);
    expect((await list('', l.liveKey)).body).toEqual([]);
    const liveProduct = (await catalogWorld(app, l.liveKey).product('GLP')).id;
    const liveOrder = await app.request('POST', '/v1/orders', { key: l.liveKey, body: { items: [{ productId: liveProduct, quantity: 1, sig: 'x' }] } });
    expect((await list('', l.liveKey)).body.map((o: { id: string }) => o.id)).toEqual([liveOrder.body.id]);
    expect((await list()).body.map((o: { id: string }) => o.id)).toEqual(newest);
  });
});

// ---------------------------------------------------------------------------------------------------------
// With the in-process worker: statuses come from polling the simulated pharmacy, cancels reach it.
// ---------------------------------------------------------------------------------------------------------

describe('with a worker', () => {
  let wapp: TestApp;
  let rx: Receiver;
  beforeAll(async () => {
    // No dispatch job runs before its request is done with it, however slow the host (a long grace): the
    // test that needs the worker's retry of a dispatch brings its job forward itself.
    wapp = await startTestApp({ RUN_WORKER: 'true', ORDER_SYNC_INTERVAL_MS: '100', WORKER_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0,100ms', DISPATCH_GRACE_MS: '600000' });
    rx = await startReceiver();
  });
  afterAll(async () => {
    await wapp?.close();
    await rx?.close();
  });

  const script = async (world: World, connectionId: string, settings: Record<string, unknown>) => {
    const res = await wapp.request('PATCH', `/v1/pharmacies/${connectionId}`, { key: world.key, body: { settings } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.settings).toMatchObject(settings);
  };
  const statusOf = async (world: World, id: string) => (await world.get(id)).body.status as OrderStatus;
  const reaches = (world: World, id: string, wanted: OrderStatus[]) =>
    waitFor(async () => {
      const order = (await world.get(id)).body;
      return wanted.includes(order.status) ? order : null;
    }, { what: `order ${id} to reach ${wanted.join('|')}` });

  it('polls an approved order through accepted, shipped (with tracking) and delivered; each event once', async () => {
    const p = await ordersWorld(wapp, 'Polling');
    await script(p, p.pharmacies.alpha, FAST);
    await script(p, p.pharmacies.beta, FAST);
    const order = (await p.create()).body;
    const approved = await p.approve(order.id);
    expect(approved.status).toBe(201);
    expect(approved.body.approvedAt).toBeTruthy();
    expect(['submitted', 'accepted']).toContain(approved.body.status);

    const shipped = await reaches(p, order.id, ['shipped', 'delivered']);
    expect(shipped.shipment).toMatchObject({ carrier: 'UPS', trackingNumber: expect.stringMatching(/^1ZSIM\d{13}$/), estimatedDelivery: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(shipped.shipment.trackingUrl).toContain(shipped.shipment.trackingNumber);
    expect(Date.parse(shipped.shipment.shippedAt)).not.toBeNaN();

    const delivered = await reaches(p, order.id, ['delivered']);
    expect(delivered.shipment).toMatchObject({ carrier: 'UPS', trackingNumber: shipped.shipment.trackingNumber, shippedAt: shipped.shipment.shippedAt });
    expect(Date.parse(delivered.shipment.deliveredAt)).not.toBeNaN();
    const timeline: TimelineEntry[] = delivered.timeline;
    expect(timeline.map((t) => [t.from, t.to, t.actorKind, t.actorId])).toEqual([
      [null, 'pending_approval', 'key', expect.stringMatching(/^key_/)],
      ['pending_approval', 'approved', 'user', p.provider.id],
      ['approved', 'submitting', 'user', p.provider.id],
      ['submitting', 'submitted', 'pharmacy', p.pharmacies.alpha],
      ['submitted', 'accepted', 'pharmacy', p.pharmacies.alpha],
      ['accepted', 'shipped', 'pharmacy', p.pharmacies.alpha],
      ['shipped', 'delivered', 'pharmacy', p.pharmacies.alpha],
    ]);
    const times = timeline.map((t) => Date.parse(t.at));
    for (const [i, t] of times.entries()) {
      expect(t).not.toBeNaN();
      if (i > 0) expect(t).toBeGreaterThanOrEqual(times[i - 1]);
    }

    // Nothing may repeat once the order is delivered: its sync job ends there, and with no job of the order
    // left, nothing asks the pharmacy about it again.
    await waitFor(async () => (await jobsOfOrder(wapp, order.id)).length === 0, { what: 'the order’s sync job to end once it is delivered' });
    expect(await statusOf(p, order.id)).toBe('delivered');
    const data = (status: string) => ({ orderId: order.id, pharmacyConnectionId: p.pharmacies.alpha, status });
    expect(await eventsOf(wapp, order.id)).toEqual([
      { type: 'order.routed', data: data('submitted') },
      { type: 'order.submitted', data: data('accepted') },
      { type: 'order.shipped', data: data('shipped') },
      { type: 'order.delivered', data: data('delivered') },
    ]);
    const logged = await wapp.request('GET', '/v1/developer/events?limit=100', { key: p.key });
    expect(logged.body.data.filter((e: { data: { orderId?: string } }) => e.data.orderId === order.id)).toHaveLength(4);
  });

  it('a pharmacy scripted to reject: the order is rejected with its reason code; a reroute then delivers elsewhere', async () => {
    const p = await ordersWorld(wapp, 'Rejecting');
    await script(p, p.pharmacies.alpha, { ...FAST, behavior: 'reject', rejectReasonCode: 'license_hold' });
    await script(p, p.pharmacies.beta, FAST);
    const order = (await p.create()).body;
    expect((await p.approve(order.id)).status).toBe(201);
    const rejected = await reaches(p, order.id, ['rejected']);
    expect(rejected).toMatchObject({ rejectionReasonCode: 'license_hold', pharmacyConnectionId: p.pharmacies.alpha });
    expect(rejected.timeline.at(-1)).toMatchObject({ to: 'rejected', actorKind: 'pharmacy', actorId: p.pharmacies.alpha, reasonCode: 'license_hold' });
    const rejections = (await eventsOf(wapp, order.id)).filter((e) => e.type === 'order.rejected');
    // An unknown code (not the protocol's vocabulary) is `other` in the event, the pharmacy's own code beside it.
    expect(rejections).toEqual([{ type: 'order.rejected', data: { orderId: order.id, pharmacyConnectionId: p.pharmacies.alpha, status: 'rejected', reasonCode: 'other', reasonRaw: 'license_hold' } }]);

    expect((await p.act(order.id, 'reroute')).body).toEqual({ rerouted: true, connectionId: p.pharmacies.beta });
    expect((await p.act(order.id, 'submit')).status).toBe(201);
    const delivered = await reaches(p, order.id, ['delivered']);
    expect(delivered).toMatchObject({ pharmacyConnectionId: p.pharmacies.beta, rejectionReasonCode: null });
    // Both rounds' syncs are over (the rejection ended round 1's, delivery round 2's): nothing more can come.
    await waitFor(async () => (await jobsOfOrder(wapp, order.id)).length === 0, { what: 'both rounds’ sync jobs to end' });
    const [a, b] = [p.pharmacies.alpha, p.pharmacies.beta];
    expect((await eventsOf(wapp, order.id)).map((e) => [e.type, e.data.pharmacyConnectionId])).toEqual([
      ['order.routed', a],
      ['order.rejected', a],
      ['order.routed', b],
      ['order.submitted', b],
      ['order.shipped', b],
      ['order.delivered', b],
    ]);
  });

  it('cancelling a dispatched order reaches the simulated pharmacy: its book row is cancelled', async () => {
    const p = await ordersWorld(wapp, 'Cancelling');
    const order = (await p.create()).body;
    expect((await p.approve(order.id)).status).toBe(201);
    await reaches(p, order.id, ['accepted']);
    const d = await lastDispatch(wapp, order.id);
    const res = await p.act(order.id, 'cancel');
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('cancelled');
    const book = await waitFor(
      async () => (await rows<{ cancelled_at: unknown }>(wapp, sql`select cancelled_at from simulated_pharmacy_orders where connection_id = ${d.connection_id} and idempotency_key = ${d.idempotency_key}`))[0]?.cancelled_at,
      { what: 'the pharmacy to record the cancel' },
    );
    expect(book).toBeTruthy();
    await waitFor(async () => (await lastDispatch(wapp, order.id)).status === 'cancelled', { what: 'the dispatch to be marked cancelled' });
    expect((await lastDispatch(wapp, order.id)).pharmacy_status).toBe('cancelled');
    // The cancel job has finished and nothing else of the order is due (its sync waits for the ship time, a
    // minute on): the worker has run all it would run, and then went round a few more times.
    await waitFor(async () => (await jobsOfOrder(wapp, order.id)).every((j) => j.kind === 'order.sync' && !j.due), { what: 'the order’s due jobs to be done' });
    await workerTurns(wapp.worker!, 3, { what: 'the worker to go round after the cancel' });
    expect(await statusOf(p, order.id)).toBe('cancelled');
    expect((await eventsOf(wapp, order.id)).map((e) => e.type)).toEqual(['order.routed', 'order.submitted', 'order.cancelled']);
  });

  it('asks a simulated pharmacy again when its script says the order changes, not every interval; a new script applies at once', async () => {
    const SLOW = { acceptAfterSeconds: 3600, shipAfterSeconds: 7200, deliverAfterSeconds: 9000 };
    const p = await ordersWorld(wapp, 'Scripted sync', { alphaSettings: SLOW, betaSettings: SLOW });
    const order = (await p.create()).body;
    const approving = Date.now();
    expect((await p.approve(order.id)).body.status).toBe('submitted');
    const approved = Date.now();
    const d = await lastDispatch(wapp, order.id);
    const [{ received_at }] = await rows<{ received_at: string | Date }>(
      wapp,
      sql`select received_at from simulated_pharmacy_orders where connection_id = ${d.connection_id} and idempotency_key = ${d.idempotency_key}`,
    );
    const receivedAt = new Date(received_at).getTime();
    expect(receivedAt).toBeGreaterThanOrEqual(approving);
    expect(receivedAt).toBeLessThanOrEqual(approved);
    const jobsOf = () =>
      rows<{ kind: string; run_at: string | Date; attempts: number }>(wapp, sql`select kind, run_at, attempts from jobs where payload->>'dispatchId' = ${d.id}`);
    // The request's own dispatch job became the order's one sync job, due when the pharmacy accepts.
    const [job, ...more] = await jobsOf();
    expect(more).toEqual([]);
    expect(job.kind).toBe('order.sync');
    expect(new Date(job.run_at).getTime()).toBe(receivedAt + 3600_000);
    // However often the worker goes round (every 50 ms when idle; syncs are 100 ms apart), the pharmacy is not
    // asked once: the job is never claimed, and the order waits.
    await workerTurns(wapp.worker!, 12, { what: 'the worker to go round a dozen times' });
    expect((await jobsOf())[0]).toMatchObject({ kind: 'order.sync', attempts: 0 });
    expect(await statusOf(p, order.id)).toBe('submitted');
    // A faster script is applied to the order in flight at once, through to delivery.
    await script(p, d.connection_id, FAST);
    await reaches(p, order.id, ['delivered']);
    await waitFor(async () => ((await jobsOf()).length === 0 ? true : null), { what: 'the sync job to finish once the order is delivered' });
  });

  it('a pharmacy that called back before its acknowledgement was recorded keeps the dispatch, and still gets the cancel', async () => {
    const flaky = await startReceiver(() => ({ status: 503, body: 'down' }));
    try {
      const s = await ordersWorld(wapp, 'Lost ack', { mode: 'live' });
      const cw = catalogWorld(wapp, s.key);
      const gamma = await cw.pharmacy('Gamma', ['CA', 'TX'], { baseUrl: flaky.url, timeoutMs: 2000 }, { adapter: 'http' });
      await cw.approvedCatalog(gamma.id, [['GLP', 'G-GLP', 500, 50, 1]]);
      for (const id of [s.pharmacies.alpha, s.pharmacies.beta]) expect((await wapp.request('PATCH', `/v1/pharmacies/${id}`, { key: s.key, body: { status: 'disabled' } })).status).toBe(200);
      const order = (await s.create()).body;
      expect((await s.approve(order.id)).body).toMatchObject({ status: 'submitting', pharmacyConnectionId: gamma.id });
      const d = await lastDispatch(wapp, order.id);
      // The request's own send (refused with a 503) is the only one the pharmacy may ever see.
      const sends = () => flaky.received.filter((r) => r.path === '/orders').length;
      expect(sends()).toBe(1);
      // The pharmacy had the order after all (our request timed out on its side of the wire) and says so.
      const cb = await pharmacyCallback(wapp, gamma.id, gamma.secret, { idempotencyKey: d.idempotency_key, status: 'accepted' });
      expect(cb.body).toEqual({ received: true, outcome: 'applied' });
      expect(await statusOf(s, order.id)).toBe('accepted');
      // The worker's retry of the dispatch (its grace brought forward) then finds the order moved on by this
      // round's callback: the dispatch stands (it must not be written off as cancelled), and nothing is sent again.
      const retry = await rows<{ id: string }>(wapp, sql`update jobs set run_at = ${new Date()} where kind = 'order.dispatch' and payload->>'dispatchId' = ${d.id} returning id`);
      expect(retry).toHaveLength(1);
      wapp.worker!.wake();
      const settled = await waitFor(async () => {
        const x = await lastDispatch(wapp, order.id);
        return x.status !== 'pending' ? x : null;
      }, { what: 'the dispatch job to settle the dispatch' });
      expect(settled).toMatchObject({ status: 'acknowledged', pharmacy_status: 'accepted' });
      expect(sends()).toBe(1);
      // So a cancel still reaches the pharmacy.
      expect((await s.act(order.id, 'cancel')).body.status).toBe('cancelled');
      await waitFor(() => flaky.received.some((r) => r.path === `/orders/${d.idempotency_key}/cancel`), { what: 'the cancel request to reach the pharmacy' });
    } finally {
      await flaky.close();
    }
  });

  it('PHI (the planted patient’s name, e-mail, birth date) reaches none of events, deliveries, errors, callbacks, transitions or jobs', async () => {
    const NEEDLES = ['Quinn', 'Plantedname', 'plantedmail', '1971-07-17', '9 Elm St'];
    const p = await ordersWorld(wapp, 'Phi');
    await script(p, p.pharmacies.alpha, FAST);
    await script(p, p.pharmacies.beta, FAST);
    const hook = await wapp.request('POST', '/v1/developer/webhooks', { key: p.key, body: { url: `${rx.url}/phi` } });
    expect(hook.status, hook.text).toBe(201);
    const jobSnapshots: string[] = [];
    const snapJobs = async () => jobSnapshots.push(JSON.stringify(await rows(wapp, sql`select * from jobs`)));
    const errorsSeen: ApiResponse[] = [];
    const refused = (res: ApiResponse) => {
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      errorsSeen.push(res);
      return res;
    };
    const email = 'quinn.ca@plantedmail.test';

    // The happy path, to delivered.
    const order = (await p.create({ foreignOrderId: 'phi-1' })).body;
    const before = await countRows(wapp, `patient_access_log where patient_id = '${p.patients.ca}' and action = 'read'`);
    const detail = await p.get(order.id);
    expect(detail.body.patient).toMatchObject({ id: p.patients.ca, lastName: 'PlantednameCA', email });
    expect(await countRows(wapp, `patient_access_log where patient_id = '${p.patients.ca}' and action = 'read'`)).toBe(before + 1);
    const [access] = await rows<{ actor_kind: string; request_id: string }>(
      wapp,
      sql`select actor_kind, request_id from patient_access_log where patient_id = ${p.patients.ca} and action = 'read' order by id desc limit 1`,
    );
    expect(access).toEqual({ actor_kind: 'key', request_id: detail.headers.get('x-request-id') });
    refused(await p.act(order.id, 'submit'));
    refused(await p.approve(order.id, p.key));
    refused(await p.act(order.id, 'reroute'));
    expect((await p.approve(order.id)).status).toBe(201);
    await snapJobs();
    await reaches(p, order.id, ['delivered']);
    await snapJobs();

    // Error paths, several with the patient's details in the input.
    refused(await p.act(order.id, 'cancel'));
    refused(await p.act(order.id, 'resolve', p.key, { patientId: email, confirmAmber: true }));
    refused(await p.create({ patientId: email }));
    refused(await p.create({ patientId: 'Quinn PlantednameCA 1971-07-17' }));
    refused(await p.create({ foreignOrderId: 'phi-1' }));
    refused(await p.create({ items: [{ productId: email, quantity: 1, sig: 'x' }] }));
    refused(await p.create({ items: [{ productId: p.products.glp, quantity: 'Quinn', sig: 'x' }] }));
    refused(await p.create({ source: 'Quinn PlantednameCA' }));
    refused(await p.create({}, p.key, email));
    refused(await wapp.request('GET', `/v1/orders/${encodeURIComponent(email)}`, { key: p.key }));
    refused(await wapp.request('GET', `/v1/orders?status=${encodeURIComponent(email)}`, { key: p.key }));
    refused(await wapp.request('POST', `/v1/orders/${encodeURIComponent(email)}/cancel`, { key: p.key, body: {} }));
    const d = await lastDispatch(wapp, order.id);
    refused(await pharmacyCallback(wapp, d.connection_id, p.pharmacies.betaSecret, { idempotencyKey: d.idempotency_key, status: 'shipped', reasonCode: 'quinn' }));
    refused(await pharmacyCallback(wapp, d.connection_id, p.pharmacies.alphaSecret, { idempotencyKey: d.idempotency_key, status: 'shipped', tracking: { carrier: 'Quinn PlantednameCA', number: email, url: email } }));
    refused(await pharmacyCallback(wapp, d.connection_id, p.pharmacies.alphaSecret, { idempotencyKey: email, status: email }));
    expect((await pharmacyCallback(wapp, d.connection_id, p.pharmacies.alphaSecret, { idempotencyKey: newId('dispatch'), status: 'delivered' })).body.outcome).toBe('unmatched');
    expect(errorsSeen.length).toBeGreaterThanOrEqual(17);

    await waitFor(() => rx.received.filter((x) => x.path === '/phi').length >= 4, { what: 'four order webhooks' });
    await snapJobs();
    const delivered = rx.received.filter((x) => x.path === '/phi');
    expect(delivered.map((x) => JSON.parse(x.body).type).sort()).toEqual(['order.delivered', 'order.routed', 'order.shipped', 'order.submitted']);
    for (const x of delivered) expect(Object.keys(JSON.parse(x.body).data).sort()).toEqual(['orderId', 'pharmacyConnectionId', 'status']);

    const places: [string, string][] = [
      ['events', JSON.stringify(await rows(wapp, sql`select * from events`))],
      ['webhook deliveries (received)', JSON.stringify(delivered.map((x) => [x.headers, x.body]))],
      ['webhook_deliveries', JSON.stringify(await rows(wapp, sql`select * from webhook_deliveries`))],
      ['pharmacy_callbacks', JSON.stringify(await rows(wapp, sql`select * from pharmacy_callbacks`))],
      ['order_transitions', JSON.stringify(await rows(wapp, sql`select * from order_transitions`))],
      ['order_dispatches', JSON.stringify(await rows(wapp, sql`select * from order_dispatches`))],
      ['jobs', jobSnapshots.join('\n')],
      ['event log API', (await wapp.request('GET', '/v1/developer/events?limit=100', { key: p.key })).text],
      ...errorsSeen.map((res, i): [string, string] => [`error #${i} ${res.status} ${res.body?.error?.code}`, res.text]),
    ];
    for (const [where, text] of places) {
      expect(text.length, where).toBeGreaterThan(0);
      for (const needle of NEEDLES) expect(text, `${where} carries ${needle}`).not.toContain(needle);
    }
  });
});
