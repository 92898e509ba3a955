import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { OrderStatus } from '@/db/schema';
import type { TestApp } from './harness';
import type { ordersWorld } from './orders-world';

/** Orders of a patient in a chosen status, for the portal's tests: created, approved and moved as a clinic and its pharmacy would. */

export type World = Awaited<ReturnType<typeof ordersWorld>>;

/**
 * Pharmacy scripts that hold an order as received for an hour: with the worker running (sign-in mails need it),
 * an order then moves only when a test's callback says so.
 */
export const HOLDING = { alphaSettings: { acceptAfterSeconds: 3600, shipAfterSeconds: 7200, deliverAfterSeconds: 10800 }, betaSettings: { acceptAfterSeconds: 3600, shipAfterSeconds: 7200, deliverAfterSeconds: 10800 } };

async function lastDispatch(app: TestApp, orderId: string) {
  const res = (await app.services.database.db.execute(
    sql`select idempotency_key, connection_id from order_dispatches where order_id = ${orderId} order by round desc limit 1`,
  )) as unknown as { rows: { idempotency_key: string; connection_id: string }[] };
  return res.rows[0];
}

/** The pharmacy of the order's newest dispatch reports `status`, signed with its secret, as its callback would. */
export async function pharmacySays(app: TestApp, w: World, orderId: string, status: string, extra: Record<string, unknown> = {}) {
  const d = await lastDispatch(app, orderId);
  const secret = d.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  const raw = JSON.stringify({ idempotencyKey: d.idempotency_key, status, ...extra });
  const msgId = `msg_${randomUUID()}`;
  const at = new Date();
  const res = await app.request('POST', `/v1/pharmacy-callbacks/${d.connection_id}`, {
    rawBody: raw,
    headers: { 'content-type': 'application/json', 'webhook-id': msgId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(msgId, at, raw) },
  });
  expect(res.status, res.text).toBe(200);
  expect(res.body.outcome).toBe('applied');
}

export const TRACKING = { carrier: 'UPS', number: '1Z999AA10123456784', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' };

/** A new order of the patient, brought to `status` (a live world's provider approves; pharmacies report by callback). */
export async function orderIn(app: TestApp, w: World, patientId: string, status: OrderStatus): Promise<string> {
  const created = await w.create({ patientId });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  if (status === 'pending_approval') return id;
  if (status === 'cancelled') {
    expect((await w.act(id, 'cancel')).status).toBe(201);
    return id;
  }
  const approved = await w.approve(id);
  expect(approved.body.status, approved.text).toBe('submitted');
  if (status === 'submitted') return id;
  if (status === 'rejected' || status === 'approved') {
    await pharmacySays(app, w, id, 'rejected', { reasonCode: 'license_hold' });
    if (status === 'approved') {
      const res = await w.act(id, 'reroute');
      expect(res.body.rerouted, res.text).toBe(true);
    }
    return id;
  }
  await pharmacySays(app, w, id, 'accepted');
  if (status === 'accepted') return id;
  await pharmacySays(app, w, id, 'shipped', { tracking: TRACKING, estimatedDelivery: '2031-01-15' });
  if (status === 'shipped') return id;
  await pharmacySays(app, w, id, 'delivered');
  return id;
}
