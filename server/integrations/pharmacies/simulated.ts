import { createHash } from 'node:crypto';
import { now } from '@/server/lib/clock';
import { newId } from '@/server/lib/ids';
import { parseSignedCallback } from './callbacks';
import type { KnownReasonCode } from '@/server/lib/pharmacy-reason-codes';
import { ZSimulatedSettings, type SimulatedSettings } from './settings';
import type { AdapterDeps, ConnectionForAdapter, DispatchOrder, PharmacyAdapter, PharmacyOrderState, SimulatedBookEntry, Tracking } from './types';

const TRACKING_URL: Record<SimulatedSettings['carrier'], (n: string) => string> = {
  UPS: (n) => `https://www.ups.com/track?tracknum=${n}`,
  USPS: (n) => `https://tools.usps.com/go/TrackConfirmAction?tLabels=${n}`,
  FedEx: (n) => `https://www.fedex.com/fedextrack/?trknbr=${n}`,
  DHL: (n) => `https://www.dhl.com/us-en/home/tracking.html?tracking-id=${n}`,
};

function trackingFor(row: SimulatedBookEntry, carrier: SimulatedSettings['carrier']): Tracking {
  const digits = BigInt(`0x${createHash('sha256').update(row.id).digest('hex').slice(0, 15)}`).toString().padStart(18, '0').slice(0, 18);
  const number = carrier === 'UPS' ? `1ZSIM${digits.slice(0, 13)}` : `SIM${digits}`;
  return { carrier, number, url: TRACKING_URL[carrier](number) };
}

/** The status is a pure function of the script and the time since receipt, so any lookup tells the same story. */
export function simulatedState(row: SimulatedBookEntry, s: SimulatedSettings, at: Date): PharmacyOrderState {
  const received = row.receivedAt.getTime();
  const after = (seconds: number) => new Date(received + seconds * 1000);
  const elapsed = (at.getTime() - received) / 1000;
  const eta = after(s.deliverAfterSeconds).toISOString().slice(0, 10);
  const base = { idempotencyKey: row.idempotencyKey, externalId: row.id, reasonCode: null, tracking: null, estimatedDelivery: null, nextChangeAt: null };
  if (row.outcome === 'reject') return { ...base, status: 'rejected', reasonCode: row.reasonCode };
  const shipped = elapsed >= s.shipAfterSeconds;
  if (row.cancelledAt && (!shipped || row.cancelledAt.getTime() < received + s.shipAfterSeconds * 1000)) {
    return { ...base, status: 'cancelled' };
  }
  if (elapsed < s.acceptAfterSeconds) return { ...base, status: 'received', estimatedDelivery: eta, nextChangeAt: after(s.acceptAfterSeconds) };
  if (!shipped) return { ...base, status: 'accepted', estimatedDelivery: eta, nextChangeAt: after(s.shipAfterSeconds) };
  const delivered = elapsed >= s.deliverAfterSeconds;
  return {
    ...base,
    status: delivered ? 'delivered' : 'shipped',
    tracking: trackingFor(row, s.carrier),
    estimatedDelivery: eta,
    nextChangeAt: delivered ? null : after(s.deliverAfterSeconds),
  };
}

const settingsOf = (conn: ConnectionForAdapter) => ZSimulatedSettings.parse(conn.settings);
// The protocol's own code (server/lib/pharmacy-reason-codes.ts), as a real pharmacy would send it.
const OUT_OF_STOCK: KnownReasonCode = 'out_of_stock';

/** DESIGN decision 11: the scriptable pharmacy every sandbox order goes to. */
export function simulatedAdapter({ book }: AdapterDeps): PharmacyAdapter {
  return {
    name: 'simulated',
    settingsSchema: ZSimulatedSettings,

    async submit(conn, order: DispatchOrder, key) {
      const s = settingsOf(conn);
      const outOfStock = order.items.some((i) => s.outOfStock.includes(i.sku) || s.outOfStock.includes(i.productId));
      const outcome = s.behavior === 'reject' || outOfStock ? 'reject' : 'accept';
      // A repeated key answers with the order the first submit created, as a real pharmacy would.
      const row = await book.receive({
        id: newId('simulatedPharmacyOrder'),
        connectionId: conn.id,
        idempotencyKey: key,
        payload: { orderId: order.orderId, patientId: order.patient.id, items: order.items },
        outcome,
        reasonCode: outcome === 'accept' ? null : outOfStock ? OUT_OF_STOCK : s.rejectReasonCode,
        receivedAt: now(),
      });
      return simulatedState(row, s, now());
    },

    async lookup(conn, key) {
      const row = await book.find(conn.id, key);
      return row ? simulatedState(row, settingsOf(conn), now()) : null;
    },

    async cancel(conn, key) {
      const row = await book.find(conn.id, key);
      if (!row) return null;
      const s = settingsOf(conn);
      const state = simulatedState(row, s, now());
      if (state.status !== 'received' && state.status !== 'accepted') return state;
      return simulatedState(await book.markCancelled(row.id, now()), s, now());
    },

    parseCallback: (conn, req) => parseSignedCallback(conn.secret, req),

    async fetchCatalog(conn) {
      return settingsOf(conn).catalog;
    },
  };
}
