import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOLD_RELEASED } from '@/server/domain/orders/pharmacy-holds';
import { dispatchesOf, sendCallback } from './helpers/dispatch';
import { expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld } from './helpers/orders-world';

/*
 * Issue 54, item 2: the reason-code vocabulary on the order path. A rejection's `order.rejected` carries the
 * vocabulary's code (an unknown one is `other` with the pharmacy's own code in `reasonRaw`, never dropped); the
 * order and its timeline keep the code as sent. A hold (a code with `received`/`accepted`) is noted on the
 * timeline once per change, and its release too. No worker runs: every status after `submitted` is a callback's.
 */

let app: TestApp;
let w: Awaited<ReturnType<typeof ordersWorld>>;

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '600000', DISPATCH_GRACE_MS: '600000' });
  const slow = { acceptAfterSeconds: 3600, shipAfterSeconds: 7200, deliverAfterSeconds: 10_800 };
  w = await ordersWorld(app, 'Reasons', { alphaSettings: slow, betaSettings: slow });
});
afterAll(async () => app?.close());

async function submitted() {
  const order = (await w.create()).body;
  const approved = await w.approve(order.id);
  expect(approved.body.status).toBe('submitted');
  const [dispatch] = await dispatchesOf(app, order.id);
  const secret = dispatch.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  const send = (body: Record<string, unknown>) => sendCallback(app, dispatch.connection_id, secret, { idempotencyKey: dispatch.id, ...body });
  const say = async (body: Record<string, unknown>) => (await send(body)).body.outcome as string;
  return { id: order.id as string, connectionId: dispatch.connection_id, send, say };
}

const rejections = async (orderId: string) =>
  ((await app.request('GET', '/v1/developer/events?type=order.rejected&limit=100', { key: w.key })).body.data as { data: Record<string, unknown> }[])
    .map((e) => e.data)
    .filter((d) => d.orderId === orderId);

describe('rejections', () => {
  it('a code of the vocabulary travels as itself, with no reasonRaw', async () => {
    const o = await submitted();
    expect(await o.say({ status: 'rejected', reasonCode: 'prior_authorization_required' })).toBe('applied');
    expect(await rejections(o.id)).toEqual([{ orderId: o.id, pharmacyConnectionId: o.connectionId, status: 'rejected', reasonCode: 'prior_authorization_required' }]);
    expect((await w.get(o.id)).body).toMatchObject({ status: 'rejected', rejectionReasonCode: 'prior_authorization_required' });
  });

  it('an unknown code is kept: `other` in the event with the raw code beside it, the raw code on the order and its timeline', async () => {
    const o = await submitted();
    expect(await o.say({ status: 'rejected', reasonCode: 'pharmacist_on_leave' })).toBe('applied');
    expect(await rejections(o.id)).toEqual([{ orderId: o.id, pharmacyConnectionId: o.connectionId, status: 'rejected', reasonCode: 'other', reasonRaw: 'pharmacist_on_leave' }]);
    const order = (await w.get(o.id)).body;
    expect(order.rejectionReasonCode).toBe('pharmacist_on_leave');
    expect(order.timeline.at(-1)).toMatchObject({ to: 'rejected', actorKind: 'pharmacy', reasonCode: 'pharmacist_on_leave' });
  });

  it('a rejection without a code is `rejected` ("no reason given")', async () => {
    const o = await submitted();
    expect(await o.say({ status: 'rejected' })).toBe('applied');
    expect(await rejections(o.id)).toEqual([{ orderId: o.id, pharmacyConnectionId: o.connectionId, status: 'rejected', reasonCode: 'rejected' }]);
  });

  it('prose is not a code: the callback is a 400 and changes nothing', async () => {
    const o = await submitted();
    expectEnvelope(await o.send({ status: 'rejected', reasonCode: 'Out of stock for Jane Doe' }), 400, 'validation_error', 'invalid_callback');
    expect((await w.get(o.id)).body.status).toBe('submitted');
    expect(await rejections(o.id)).toEqual([]);
  });
});

describe('holds', () => {
  const notes = async (orderId: string) =>
    ((await w.get(orderId)).body.timeline as { from: string; to: string; reasonCode: string | null; actorKind: string }[]).filter((t) => t.from === t.to);

  it('a hold is noted once with its code, a repeat adds nothing, and its release is noted', async () => {
    const o = await submitted();
    expect(await o.say({ status: 'accepted', reasonCode: 'prior_authorization_required' })).toBe('applied');
    const order = (await w.get(o.id)).body;
    expect(order.status).toBe('accepted');
    expect(await notes(o.id)).toEqual([expect.objectContaining({ from: 'accepted', to: 'accepted', actorKind: 'pharmacy', reasonCode: 'prior_authorization_required' })]);

    expect(await o.say({ status: 'accepted', reasonCode: 'prior_authorization_required' })).toBe('duplicate');
    expect(await notes(o.id)).toHaveLength(1);

    expect(await o.say({ status: 'accepted', reasonCode: 'patient_unreachable' })).toBe('applied');
    expect(await o.say({ status: 'accepted' })).toBe('applied');
    expect((await notes(o.id)).map((n) => n.reasonCode)).toEqual(['prior_authorization_required', 'patient_unreachable', HOLD_RELEASED]);

    // Moving on is no note: the move itself says the hold is over.
    expect(await o.say({ status: 'shipped', tracking: { carrier: 'UPS', number: '1ZHOLD' } })).toBe('applied');
    expect(await notes(o.id)).toHaveLength(3);
    expect((await w.get(o.id)).body.status).toBe('shipped');
  });

  it('a hold on the status the order already has is noted without a move', async () => {
    const o = await submitted();
    expect(await o.say({ status: 'accepted' })).toBe('applied');
    expect(await o.say({ status: 'accepted', reasonCode: 'out_of_stock' })).toBe('applied');
    expect((await notes(o.id)).map((n) => n.reasonCode)).toEqual(['out_of_stock']);
    expect((await w.get(o.id)).body.status).toBe('accepted');
  });
});
