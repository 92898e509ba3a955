import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { catalogWorld } from './helpers/catalog-world';
import { countRows, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld } from './helpers/orders-world';
import { startReceiver, type Receiver } from './helpers/webhooks';

/*
 * POST /v1/pharmacy-callbacks/{connectionId} (DESIGN decision 11) and GET /v1/orders/reconciliation. The app
 * runs no worker, so every status an order takes after `submitted` is the doing of a callback here.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;

let app: TestApp;
let down: Receiver;

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000', STUCK_SUBMITTING_MS: '1000' });
  down = await startReceiver(() => ({ status: 503, body: 'down' }));
});
afterEach(() => setClock(null));
afterAll(async () => {
  await app?.close();
  await down?.close();
});

async function rows<T>(query: SQL): Promise<T[]> {
  return ((await app.services.database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

interface SendOptions {
  msgId?: string;
  /** Sign this body but send `raw` instead (a tampered body). */
  signed?: string;
  at?: Date;
  signature?: string;
  contentType?: string;
  omit?: ('webhook-id' | 'webhook-timestamp' | 'webhook-signature')[];
}

/** A pharmacy status callback, signed with `secret` the Standard Webhooks way; no bearer. */
function send(connectionId: string, secret: string, body: unknown, o: SendOptions = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const msgId = o.msgId ?? `msg_${randomUUID()}`;
  const at = o.at ?? new Date();
  const headers: Record<string, string> = {
    'content-type': o.contentType ?? 'application/json',
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': o.signature ?? new Webhook(secret).sign(msgId, at, o.signed ?? raw),
  };
  for (const h of o.omit ?? []) delete headers[h];
  return app.request('POST', `/v1/pharmacy-callbacks/${connectionId}`, { rawBody: raw, headers });
}

async function lastDispatch(orderId: string) {
  const [d] = await rows<{ id: string; idempotency_key: string; connection_id: string; round: number; status: string; pharmacy_status: string | null }>(
    sql`select id, idempotency_key, connection_id, round, status, pharmacy_status from order_dispatches where order_id = ${orderId} order by round desc limit 1`,
  );
  return d;
}

const eventsOf = (orderId: string) => rows<{ type: string; data: Record<string, unknown> }>(sql`select type, data from events where data->>'orderId' = ${orderId} order by id`);
const outcomesOf = async (orderId: string) =>
  (await rows<{ outcome: string }>(sql`select outcome from pharmacy_callbacks where order_id = ${orderId} order by id`)).map((r) => r.outcome);
const reconciliation = (key: string) => app.request('GET', '/v1/orders/reconciliation', { key });

/** An approved order the world's pharmacy has; `say(status, extra)` is that pharmacy calling back. */
async function submittedOrder(w: World, body: Record<string, unknown> = {}) {
  const order = (await w.create(body)).body;
  const approved = await w.approve(order.id);
  expect(approved.body.status, approved.text).toBe('submitted');
  const d = await lastDispatch(order.id);
  const secret = d.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  const say = async (status: string, extra: Record<string, unknown> = {}, o: SendOptions = {}) => {
    const res = await send(d.connection_id, secret, { idempotencyKey: d.idempotency_key, status, ...extra }, o);
    expect(res.status, res.text).toBe(200);
    return res.body.outcome as string;
  };
  return { id: order.id as string, connectionId: d.connection_id, key: d.idempotency_key, secret, say };
}

/** What must not change when a callback is refused or not applied. */
async function state(w: World, id: string) {
  const order = (await w.get(id)).body;
  return { status: order.status, updatedAt: order.updatedAt, shipment: order.shipment, timeline: order.timeline.length, events: (await eventsOf(id)).length };
}

const TRACKING = { carrier: 'FedEx', number: '771234567890', url: 'https://www.fedex.com/fedextrack/?trknbr=771234567890' };

describe('statuses from callbacks', () => {
  let w: World;
  beforeAll(async () => {
    w = await ordersWorld(app, 'Callbacks');
  });

  it('accepted, shipped and delivered move the order forward; repeats are duplicates; one event each', async () => {
    const o = await submittedOrder(w);
    const data = (status: string) => ({ orderId: o.id, pharmacyConnectionId: o.connectionId, status });

    const accepted = await send(o.connectionId, o.secret, { idempotencyKey: o.key, status: 'accepted' }, { msgId: 'cb-accepted-1' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({ received: true, outcome: 'applied' });
    expect((await w.get(o.id)).body.status).toBe('accepted');
    expect(await o.say('accepted')).toBe('duplicate');
    // The very same delivery again (same webhook-id): still a no-op.
    expect((await send(o.connectionId, o.secret, { idempotencyKey: o.key, status: 'accepted' }, { msgId: 'cb-accepted-1' })).body.outcome).toBe('duplicate');

    expect(await o.say('shipped', { tracking: TRACKING, estimatedDelivery: '2031-03-04' })).toBe('applied');
    const shipped = (await w.get(o.id)).body;
    expect(shipped.status).toBe('shipped');
    expect(shipped.shipment).toMatchObject({ carrier: 'FedEx', trackingNumber: '771234567890', trackingUrl: TRACKING.url, estimatedDelivery: '2031-03-04', deliveredAt: null });
    expect(Date.parse(shipped.shipment.shippedAt)).not.toBeNaN();
    expect(await o.say('shipped', { tracking: TRACKING })).toBe('duplicate');

    expect(await o.say('delivered')).toBe('applied');
    const delivered = (await w.get(o.id)).body;
    expect(delivered.status).toBe('delivered');
    expect(delivered.shipment).toMatchObject({ carrier: 'FedEx', trackingNumber: '771234567890', trackingUrl: TRACKING.url, estimatedDelivery: '2031-03-04', shippedAt: shipped.shipment.shippedAt });
    expect(Date.parse(delivered.shipment.deliveredAt)).not.toBeNaN();
    expect(await o.say('delivered')).toBe('duplicate');

    expect(delivered.timeline.slice(-3).map((t: { from: string; to: string; actorKind: string; actorId: string }) => [t.from, t.to, t.actorKind, t.actorId])).toEqual([
      ['submitted', 'accepted', 'pharmacy', o.connectionId],
      ['accepted', 'shipped', 'pharmacy', o.connectionId],
      ['shipped', 'delivered', 'pharmacy', o.connectionId],
    ]);
    expect(await eventsOf(o.id)).toEqual([
      { type: 'order.routed', data: data('submitted') },
      { type: 'order.submitted', data: data('accepted') },
      { type: 'order.shipped', data: data('shipped') },
      { type: 'order.delivered', data: data('delivered') },
    ]);
    expect(await outcomesOf(o.id)).toEqual(['applied', 'duplicate', 'duplicate', 'applied', 'duplicate', 'applied', 'duplicate']);
    expect((await lastDispatch(o.id)).pharmacy_status).toBe('delivered');
  });

  it('rejected moves the order with the pharmacy’s reason code; nothing moves it on afterwards', async () => {
    const o = await submittedOrder(w);
    expect(await o.say('accepted')).toBe('applied');
    expect(await o.say('rejected', { reasonCode: 'prescription_invalid' })).toBe('applied');
    const rejected = (await w.get(o.id)).body;
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReasonCode: 'prescription_invalid' });
    expect(rejected.timeline.at(-1)).toMatchObject({ from: 'accepted', to: 'rejected', actorKind: 'pharmacy', actorId: o.connectionId, reasonCode: 'prescription_invalid' });
    const before = await state(w, o.id);
    expect(await o.say('rejected', { reasonCode: 'prescription_invalid' })).toBe('duplicate');
    for (const late of ['accepted', 'shipped', 'delivered', 'cancelled']) expect(await o.say(late, late === 'accepted' ? {} : { tracking: TRACKING })).toBe('stale');
    expect(await state(w, o.id)).toEqual(before);
    expect((await eventsOf(o.id)).filter((e) => e.type === 'order.rejected')).toEqual([
      { type: 'order.rejected', data: { orderId: o.id, pharmacyConnectionId: o.connectionId, status: 'rejected', reasonCode: 'prescription_invalid' } },
    ]);
  });

  it('out of order: delivered before shipped walks every step once; an older status never moves it back', async () => {
    const o = await submittedOrder(w);
    expect(await o.say('delivered', { tracking: TRACKING })).toBe('applied');
    const delivered = (await w.get(o.id)).body;
    expect(delivered.status).toBe('delivered');
    expect(delivered.timeline.map((t: { to: string }) => t.to)).toEqual(['pending_approval', 'approved', 'submitting', 'submitted', 'accepted', 'shipped', 'delivered']);
    expect(delivered.shipment).toMatchObject({ carrier: 'FedEx', trackingNumber: TRACKING.number });
    const before = await state(w, o.id);
    for (const older of ['shipped', 'accepted', 'rejected', 'cancelled']) expect(await o.say(older, { tracking: TRACKING })).toBe('stale');
    expect(await state(w, o.id)).toEqual(before);
    expect((await eventsOf(o.id)).map((e) => e.type)).toEqual(['order.routed', 'order.submitted', 'order.shipped', 'order.delivered']);

    const s = await submittedOrder(w);
    expect(await s.say('shipped', { tracking: TRACKING })).toBe('applied');
    const shipped = await state(w, s.id);
    expect(shipped.status).toBe('shipped');
    expect(await s.say('accepted')).toBe('stale');
    expect(await state(w, s.id)).toEqual(shipped);
  });

  it('a pharmacy-side cancellation cancels the order; it stays cancelled', async () => {
    const o = await submittedOrder(w);
    expect(await o.say('cancelled')).toBe('applied');
    const cancelled = (await w.get(o.id)).body;
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.timeline.at(-1)).toMatchObject({ from: 'submitted', to: 'cancelled', actorKind: 'pharmacy', reasonCode: 'pharmacy_cancelled' });
    expect(await o.say('delivered', { tracking: TRACKING })).toBe('stale');
    expect((await w.get(o.id)).body.status).toBe('cancelled');
  });

  it('a callback about an earlier dispatch round (before a reroute) is stale; the current round’s applies', async () => {
    const first = await submittedOrder(w);
    expect(await first.say('rejected', { reasonCode: 'out_of_stock' })).toBe('applied');
    expect((await w.act(first.id, 'reroute')).body).toEqual({ rerouted: true, connectionId: w.pharmacies.beta });
    expect(await first.say('accepted')).toBe('stale');
    expect((await w.get(first.id)).body.status).toBe('approved');
    expect((await w.act(first.id, 'submit')).body.status).toBe('submitted');
    const before = await state(w, first.id);
    expect(await first.say('delivered', { tracking: TRACKING })).toBe('stale');
    expect(await state(w, first.id)).toEqual(before);
    const second = await lastDispatch(first.id);
    expect(second).toMatchObject({ round: 2, connection_id: w.pharmacies.beta });
    const res = await send(w.pharmacies.beta, w.pharmacies.betaSecret, { idempotencyKey: second.idempotency_key, status: 'accepted' });
    expect(res.body.outcome).toBe('applied');
    expect((await w.get(first.id)).body).toMatchObject({ status: 'accepted', pharmacyConnectionId: w.pharmacies.beta });
  });

  it('a key sent to a connection that never had it matches nothing there', async () => {
    const o = await submittedOrder(w);
    const before = await state(w, o.id);
    const res = await send(w.pharmacies.beta, w.pharmacies.betaSecret, { idempotencyKey: o.key, status: 'accepted' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'unmatched' });
    expect(await state(w, o.id)).toEqual(before);
  });

  it('a signed callback applies whatever content type the pharmacy labels it with', async () => {
    const o = await submittedOrder(w);
    expect(await o.say('accepted', {}, { contentType: 'text/plain' })).toBe('applied');
    expect(await o.say('shipped', { tracking: TRACKING }, { contentType: 'application/octet-stream' })).toBe('applied');
    expect((await w.get(o.id)).body.status).toBe('shipped');
  });
});

describe('refused and unmatched callbacks are kept and counted by /orders/reconciliation', () => {
  it('reports all zeros for a healthy tenant, then exact counts of what could not be applied, per tenant and mode', async () => {
    const t = await ordersWorld(app, 'Reconcile');
    const stranger = await ordersWorld(app, 'Reconcile stranger');
    const zeros = { object: 'reconciliation', unmatchedCallbacks: 0, unverifiedCallbacks: 0, malformedCallbacks: 0, stuckSubmitting: [], stuckThresholdSeconds: 1 };
    expect((await reconciliation(t.key)).body).toEqual({ ...zeros, livemode: false });
    expect((await reconciliation(t.liveKey)).body).toEqual({ ...zeros, livemode: true });

    // Applied, duplicate and stale callbacks are healthy: they count for nothing.
    const o = await submittedOrder(t);
    expect(await o.say('accepted')).toBe('applied');
    expect(await o.say('accepted')).toBe('duplicate');
    expect(await o.say('delivered', { tracking: TRACKING })).toBe('applied');
    expect(await o.say('shipped', { tracking: TRACKING })).toBe('stale');
    expect((await reconciliation(t.key)).body).toEqual({ ...zeros, livemode: false });
    const before = await state(t, o.id);

    const alpha = t.pharmacies.alpha;
    const secret = t.pharmacies.alphaSecret;
    const good = { idempotencyKey: o.key, status: 'delivered' };

    // Bad signatures: 401, kept, counted as unverified.
    const unverified = [
      await send(alpha, t.pharmacies.betaSecret, good),
      await send(alpha, stranger.pharmacies.alphaSecret, good),
      await send(alpha, secret, { ...good, status: 'rejected' }, { signed: JSON.stringify(good) }),
      await send(alpha, secret, good, { signature: 'v1,bm90IGEgc2lnbmF0dXJl' }),
      await send(alpha, secret, good, { omit: ['webhook-signature'] }),
      await send(alpha, secret, good, { omit: ['webhook-id', 'webhook-timestamp', 'webhook-signature'] }),
      await send(alpha, secret, good, { at: new Date(Date.now() - 20 * 60_000) }),
      // Whatever the body: counted before it is parsed.
      await send(alpha, t.pharmacies.betaSecret, '<status>delivered</status>', { contentType: 'application/xml' }),
      await send(alpha, secret, '{"idempotencyKey": ', { signature: 'v1,bm90IGEgc2lnbmF0dXJl' }),
    ];
    for (const res of unverified) expectEnvelope(res, 401, 'authentication_error', 'invalid_signature');

    // Signed, but no order of this connection has the key: 200 unmatched, counted.
    for (const idempotencyKey of [newId('dispatch'), 'their-own-order-number']) {
      expect((await send(alpha, secret, { idempotencyKey, status: 'shipped', tracking: TRACKING })).body).toEqual({ received: true, outcome: 'unmatched' });
    }

    // Signed, but the body is not a callback: 400, counted as malformed.
    const malformed = [
      { idempotencyKey: o.key, status: 'teleported' },
      { status: 'shipped' },
      { idempotencyKey: '', status: 'shipped' },
      { idempotencyKey: o.key, status: 'received' },
      { idempotencyKey: o.key, status: 'shipped', tracking: { carrier: 'UPS' } },
      { idempotencyKey: o.key, status: 'shipped', tracking: { ...TRACKING, url: 'not a url' } },
      { idempotencyKey: o.key, status: 'shipped', estimatedDelivery: 'next week' },
      { idempotencyKey: o.key, status: 'rejected', reasonCode: 'Not A Code!' },
      [good],
      '',
      'not json at all',
      '{"idempotencyKey": ',
    ];
    for (const body of malformed) expectEnvelope(await send(alpha, secret, body), 400, 'validation_error', 'invalid_callback');
    // Signed, not JSON, and not even labelled JSON: still kept and counted.
    expectEnvelope(await send(alpha, secret, 'status=delivered', { contentType: 'application/x-www-form-urlencoded' }), 400, 'validation_error', 'invalid_callback');
    malformed.push('status=delivered');

    // An unknown connection: 404, and nothing is kept (there is no tenant to count it against).
    const kept = await countRows(app, 'pharmacy_callbacks');
    expectEnvelope(await send(newId('pharmacyConnection'), secret, good), 404, 'not_found');
    expectEnvelope(await send('nobody', secret, good), 404, 'not_found');
    expect(await countRows(app, 'pharmacy_callbacks')).toBe(kept);

    expect(await state(t, o.id)).toEqual(before);
    expect((await reconciliation(t.key)).body).toEqual({ ...zeros, livemode: false, unmatchedCallbacks: 2, unverifiedCallbacks: unverified.length, malformedCallbacks: malformed.length });
    expect(await countRows(app, `pharmacy_callbacks where tenant_id = '${t.tenantId}' and livemode = false`)).toBe(4 + unverified.length + 2 + malformed.length);
    // The other mode and the other tenant are untouched.
    expect((await reconciliation(t.liveKey)).body).toEqual({ ...zeros, livemode: true });
    expect((await reconciliation(stranger.key)).body).toEqual({ ...zeros, livemode: false });

    // A live connection's callbacks count in live mode only.
    const live = await catalogWorld(app, t.liveKey).pharmacy('Live Alpha', ['CA']);
    expect((await send(live.id, live.secret, { idempotencyKey: newId('dispatch'), status: 'accepted' })).body.outcome).toBe('unmatched');
    expectEnvelope(await send(live.id, secret, good), 401, 'authentication_error', 'invalid_signature');
    expect((await reconciliation(t.liveKey)).body).toEqual({ ...zeros, livemode: true, unmatchedCallbacks: 1, unverifiedCallbacks: 1 });
    expect((await reconciliation(t.key)).body.unmatchedCallbacks).toBe(2);

    // The report itself needs a credential.
    expectEnvelope(await app.request('GET', '/v1/orders/reconciliation'), 401, 'authentication_error');
  });

  it('lists an order stuck in submitting once it has been there longer than the threshold', async () => {
    const s = await ordersWorld(app, 'Stuck', { mode: 'live' });
    const cw = catalogWorld(app, s.key);
    const gamma = await cw.pharmacy('Gamma', ['CA', 'TX'], { baseUrl: down.url, timeoutMs: 2000 }, { adapter: 'http' });
    await cw.approvedCatalog(gamma.id, [['GLP', 'G-GLP', 500, 50, 1]]);
    for (const id of [s.pharmacies.alpha, s.pharmacies.beta]) expect((await app.request('PATCH', `/v1/pharmacies/${id}`, { key: s.key, body: { status: 'disabled' } })).status).toBe(200);

    const t0 = new Date();
    setClock(() => t0);
    const order = (await s.create()).body;
    const approved = await s.approve(order.id);
    expect(approved.body).toMatchObject({ status: 'submitting', pharmacyConnectionId: gamma.id });
    // The pharmacy was asked (and answered 503), so the dispatch is still pending.
    expect((await lastDispatch(order.id)).status).toBe('pending');
    expect((await reconciliation(s.key)).body.stuckSubmitting).toEqual([]);

    setClock(() => new Date(t0.getTime() + 2_000));
    const report = (await reconciliation(s.key)).body;
    expect(report).toMatchObject({ livemode: true, unmatchedCallbacks: 0, unverifiedCallbacks: 0, malformedCallbacks: 0, stuckThresholdSeconds: 1 });
    expect(report.stuckSubmitting).toEqual([{ orderId: order.id, pharmacyConnectionId: gamma.id, since: t0.toISOString() }]);
    // Only this tenant's live report lists it.
    expect((await reconciliation(s.sandboxKey)).body.stuckSubmitting).toEqual([]);
    const stranger = await ordersWorld(app, 'Stuck stranger', { mode: 'live' });
    expect((await reconciliation(stranger.key)).body.stuckSubmitting).toEqual([]);

    // Once the pharmacy calls back, the order is no longer stuck.
    const d = await lastDispatch(order.id);
    expect((await send(gamma.id, gamma.secret, { idempotencyKey: d.idempotency_key, status: 'accepted' })).body.outcome).toBe('applied');
    const moved = (await s.get(order.id)).body;
    expect(moved.status).toBe('accepted');
    expect(moved.timeline.slice(-2).map((t: { to: string; actorKind: string }) => [t.to, t.actorKind])).toEqual([
      ['submitted', 'pharmacy'],
      ['accepted', 'pharmacy'],
    ]);
    expect((await reconciliation(s.key)).body.stuckSubmitting).toEqual([]);
  });
});
