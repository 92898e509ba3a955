import { sql } from 'drizzle-orm';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { catalogWorld } from './helpers/catalog-world';
import { query } from './helpers/dispatch';
import { captureLogs } from './helpers/logs';
import { countRows, createTenantWithKeys, createUserAndLogin, startTestApp, type TestApp } from './helpers/harness';
import { trpcFailure } from './helpers/trpc';
import { ordersWorld } from './helpers/orders-world';

/*
 * Issue 21: a provider declines an order waiting for approval, with a reason, over /api/trpc. The reason is
 * free text about a patient's care: it is kept on the timeline only, never in the event or its webhooks.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;
let app: TestApp;
let w: World;
let logs: ReturnType<typeof captureLogs>;

beforeAll(async () => {
  app = await startTestApp();
  w = await ordersWorld(app, 'Decline');
  logs = captureLogs();
});
afterAll(async () => {
  logs?.restore();
  await app?.close();
});

const trpc = (token: string) => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}` } })] });

const failure = trpcFailure;

async function pendingOrder() {
  const res = await w.create();
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe('pending_approval');
  return res.body.id as string;
}

const REASON = 'Quinn reports a pancreatitis history; semaglutide is contraindicated';

/** What a refused decline must leave untouched: the order's status, its timeline, events and their deliveries. */
async function footprint(orderId: string) {
  const [order] = await query<{ status: string }>(app, sql`select status from orders where id = ${orderId}`);
  return { status: order.status, transitions: await countRows(app, 'order_transitions'), events: await countRows(app, 'events'), deliveries: await countRows(app, 'webhook_deliveries') };
}

describe('orders.declineOrder', () => {
  it('cancels a pending order, with the provider and the reason on its timeline and an order.cancelled event without the reason', async () => {
    const orderId = await pendingOrder();
    const declined = await trpc(w.provider.token).orders.declineOrder.mutate({ id: orderId, reason: `  ${REASON} ` });
    expect(declined).toMatchObject({ id: orderId, status: 'cancelled' });

    const detail = await trpc(w.provider.token).orders.getOrder.query({ id: orderId });
    const last = detail.timeline.at(-1)!;
    expect(last).toMatchObject({ from: 'pending_approval', to: 'cancelled', actorKind: 'user', actorId: w.provider.id, reasonCode: 'declined_by_provider', note: REASON });

    // A caller without patients.read (a developer) sees the change but not the reason.
    const dev = await createUserAndLogin(app, w.tenantId, { email: 'dev-decline@clinic.test', role: 'developer' });
    const devView = await trpc(dev.token).orders.getOrder.query({ id: orderId });
    expect(devView.timeline.at(-1)).toMatchObject({ reasonCode: 'declined_by_provider', note: null });

    const events = await query<{ type: string; data: unknown }>(app, sql`select type, data from events where data->>'orderId' = ${orderId}`);
    expect(events.map((e) => e.type)).toEqual(['order.cancelled']);
    expect(events[0].data).toEqual({ orderId, pharmacyConnectionId: null, status: 'cancelled' });
    const anywhere = await query<{ n: number }>(app, sql`select count(*)::int as n from events where data::text like ${'%pancreatitis%'}`);
    expect(anywhere[0].n).toBe(0);
  });

  it('refuses admins, developers and API keys with 403, and writes nothing', async () => {
    const orderId = await pendingOrder();
    const before = await footprint(orderId);
    const admin = await createUserAndLogin(app, w.tenantId, { email: 'admin-decline@clinic.test', role: 'admin' });
    const dev = await createUserAndLogin(app, w.tenantId, { email: 'dev2-decline@clinic.test', role: 'developer' });
    for (const token of [admin.token, dev.token, w.key]) {
      const { data } = await failure(trpc(token).orders.declineOrder.mutate({ id: orderId, reason: REASON }));
      expect(data).toMatchObject({ type: 'permission_error', httpStatus: 403 });
    }
    expect(await footprint(orderId)).toEqual(before);
  });

  it("answers 404 for another clinic's order", async () => {
    const other = await createTenantWithKeys(app, 'Other clinic');
    const product = await catalogWorld(app, other.sandboxKey).product('OTHER');
    const theirs = await app.request('POST', '/v1/orders', { key: other.sandboxKey, body: { items: [{ productId: product.id, quantity: 1, sig: 'Daily' }] } });
    expect(theirs.status, theirs.text).toBe(201);
    const orderId = theirs.body.id as string;
    const before = await footprint(orderId);
    const { data } = await failure(trpc(w.provider.token).orders.declineOrder.mutate({ id: orderId, reason: REASON }));
    expect(data).toMatchObject({ type: 'not_found', httpStatus: 404 });
    expect(await footprint(orderId)).toEqual(before);
  });

  it('refuses an order that is not pending approval, and writes nothing', async () => {
    const orderId = await pendingOrder();
    expect((await w.act(orderId, 'cancel')).status).toBe(201);
    const before = await footprint(orderId);
    const { data, message } = await failure(trpc(w.provider.token).orders.declineOrder.mutate({ id: orderId, reason: REASON }));
    expect(data).toMatchObject({ code: 'order_status_conflict', httpStatus: 409 });
    expect(message).toMatch(/cancelled/);
    expect(await footprint(orderId)).toEqual(before);
  });

  it('refuses an empty reason with a message naming the field, and writes nothing', async () => {
    const orderId = await pendingOrder();
    const before = await footprint(orderId);
    const { data, message } = await failure(trpc(w.provider.token).orders.declineOrder.mutate({ id: orderId, reason: '   ' }));
    expect(data).toMatchObject({ type: 'validation_error', param: 'reason', httpStatus: 400 });
    expect(message).toMatch(/why you are declining/);
    const tooLong = await failure(trpc(w.provider.token).orders.declineOrder.mutate({ id: orderId, reason: `${REASON} `.repeat(20) }));
    expect(tooLong.data).toMatchObject({ type: 'validation_error', param: 'reason', httpStatus: 400 });
    expect(tooLong.message).not.toContain('pancreatitis');
    expect(await footprint(orderId)).toEqual(before);
  });

  it('never logs a reason, accepted or refused', () => {
    expect(logs.text()).not.toContain('pancreatitis');
  });
});
