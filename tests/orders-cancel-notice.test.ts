import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/harness';
import { query } from './helpers/dispatch';
import { ordersWorld } from './helpers/orders-world';
import { waitFor } from './helpers/webhooks';

/*
 * Issue 20, item 15: a cancel is announced to integrations (`order.cancelled`, subscribable, in the
 * cancel's own transaction), and when the pharmacy cannot recall an order it already shipped, the order's
 * timeline and detail say so.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', ORDER_SYNC_INTERVAL_MS: '100', WORKER_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '0', DISPATCH_GRACE_MS: '200' });
});
afterAll(async () => app?.close());

const eventsOf = (orderId: string) =>
  query<{ id: string; type: string; data: Record<string, unknown> }>(app, sql`select id, type, data from events where data->>'orderId' = ${orderId} order by id`);

const reaches = (w: World, id: string, status: string) =>
  waitFor(async () => {
    const order = (await w.get(id)).body;
    return order.status === status ? order : null;
  }, { what: `order ${id} to be ${status}` });

async function subscribe(w: World) {
  const res = await app.request('POST', '/v1/developer/webhooks', { key: w.key, body: { url: 'http://localhost:9/hook', events: ['order.cancelled'] } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe('order.cancelled', () => {
  it('is a subscribable event type', async () => {
    const w = await ordersWorld(app, 'Types');
    const types = await app.request('GET', '/v1/developer/webhooks/events', { key: w.key });
    expect(types.body).toContain('order.cancelled');
  });

  it('cancelling a shipped order emits order.cancelled with ids and status only, queued for a subscribed endpoint; the pharmacy could not recall it, and the order says so', async () => {
    const settings = { acceptAfterSeconds: 0, shipAfterSeconds: 1, deliverAfterSeconds: 3600 };
    const w = await ordersWorld(app, 'Shipped', { alphaSettings: settings, betaSettings: settings });
    const endpoint = await subscribe(w);
    const order = (await w.create()).body;
    expect((await w.approve(order.id)).status).toBe(201);
    const shipped = await reaches(w, order.id, 'shipped');

    const res = await w.act(order.id, 'cancel');
    expect(res.status, res.text).toBe(201);
    expect(res.body.status).toBe('cancelled');
    const cancelled = (await eventsOf(order.id)).filter((e) => e.type === 'order.cancelled');
    expect(cancelled.map((e) => e.data)).toEqual([{ orderId: order.id, pharmacyConnectionId: shipped.pharmacyConnectionId, status: 'cancelled' }]);
    const queued = await query<{ endpoint_id: string }>(app, sql`select endpoint_id from webhook_deliveries where event_id = ${cancelled[0].id}`);
    expect(queued).toEqual([{ endpoint_id: endpoint }]);

    const detail = await waitFor(async () => {
      const o = (await w.get(order.id)).body;
      return o.pharmacyRecall ? o : null;
    }, { what: 'the pharmacy’s answer to the cancel' });
    expect(detail.status).toBe('cancelled');
    expect(detail.pharmacyRecall).toBe('not_recalled');
    expect(detail.timeline.at(-1)).toMatchObject({ from: 'cancelled', to: 'cancelled', actorKind: 'pharmacy', actorId: shipped.pharmacyConnectionId, reasonCode: 'pharmacy_could_not_recall' });
  });

  it('an accepted order the pharmacy recalls: order.cancelled, and the timeline records the recall', async () => {
    const settings = { acceptAfterSeconds: 0, shipAfterSeconds: 3600, deliverAfterSeconds: 7200 };
    const w = await ordersWorld(app, 'Accepted', { alphaSettings: settings, betaSettings: settings });
    const order = (await w.create()).body;
    expect((await w.approve(order.id)).status).toBe(201);
    await reaches(w, order.id, 'accepted');
    expect((await w.act(order.id, 'cancel')).status).toBe(201);
    const detail = await waitFor(async () => {
      const o = (await w.get(order.id)).body;
      return o.pharmacyRecall ? o : null;
    }, { what: 'the pharmacy’s answer to the cancel' });
    expect(detail.pharmacyRecall).toBe('recalled');
    expect(detail.timeline.at(-1)).toMatchObject({ from: 'cancelled', to: 'cancelled', actorKind: 'pharmacy', reasonCode: 'pharmacy_recalled' });
    expect((await eventsOf(order.id)).map((e) => e.type)).toEqual(['order.routed', 'order.submitted', 'order.cancelled']);
  });

  it('an order no pharmacy ever held is announced too, with a null pharmacy, and has no recall to report', async () => {
    const w = await ordersWorld(app, 'Draft');
    const order = (await w.create()).body;
    expect((await w.act(order.id, 'cancel')).status).toBe(201);
    expect((await eventsOf(order.id)).map((e) => [e.type, e.data])).toEqual([['order.cancelled', { orderId: order.id, pharmacyConnectionId: null, status: 'cancelled' }]]);
    expect((await w.get(order.id)).body.pharmacyRecall).toBeNull();
  });
});
