import { asc, desc, eq, inArray } from 'drizzle-orm';
import { orders, orderTransitions, pharmacyConnections, products, type OrderStatus, type PatientAddress } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { errors } from '@/server/lib/errors';
import { recordPatientSelfAccess } from '../access-log';
import type { PatientPrincipal } from '../sign-in/patient-sessions';
import { orderWords, safeTrackingUrl, timelineNote } from './patient-words';
import { requireOwnRecord } from './profile';

type OrderRow = typeof orders.$inferSelect;
type TransitionRow = typeof orderTransitions.$inferSelect;

/** The statuses in which the shipping address may still change: no pharmacy has (or had) the order. */
export const SHIPPING_EDITABLE: readonly OrderStatus[] = ['draft', 'pending_approval', 'approved'];
/** A patient sees at most this many orders, newest first. */
export const PATIENT_ORDERS_SHOWN = 100;

/** The order of this patient, or 404: an order of anyone else (another patient, clinic or mode) does not exist here. */
export async function requireOwnOrder(q: Queryable, principal: PatientPrincipal, id: string): Promise<OrderRow> {
  const order = await scoped(q, principal).get(orders, id);
  if (!order || order.patientId !== principal.patientId) throw errors.notFound('order', id);
  return order;
}

async function medicationsOf(q: Queryable, principal: PatientPrincipal, rows: OrderRow[]) {
  const ids = [...new Set(rows.flatMap((r) => r.items.map((i) => i.productId)))];
  const found = ids.length ? await q.select({ id: products.id, name: products.name, strength: products.strength }).from(products).where(scoped(q, principal).where(products, inArray(products.id, ids))) : [];
  const byId = new Map(found.map((p) => [p.id, p]));
  return (row: OrderRow) =>
    row.items.map((i) => ({ name: byId.get(i.productId)?.name ?? 'Medication', strength: byId.get(i.productId)?.strength ?? null, quantity: i.quantity, sig: i.sig, refills: i.refills }));
}

function shipmentOf(row: OrderRow) {
  const s = row.shipment;
  if (!s) return null;
  return { carrier: s.carrier, trackingNumber: s.trackingNumber, trackingUrl: safeTrackingUrl(s.trackingUrl), estimatedDelivery: s.estimatedDelivery, shippedAt: s.shippedAt, deliveredAt: s.deliveredAt };
}

function summaryOf(row: OrderRow, medications: ReturnType<Awaited<ReturnType<typeof medicationsOf>>>, lastReason: string | null) {
  const words = orderWords(row.status, lastReason);
  return {
    id: row.id,
    object: 'patient_order' as const,
    status: row.status,
    statusLabel: words.label,
    nextStep: words.next,
    medications,
    shipment: shipmentOf(row),
    canChangeShipping: SHIPPING_EDITABLE.includes(row.status),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The timeline as the patient reads it: each change of what the order means to them, once, oldest first. */
function patientTimeline(rows: TransitionRow[]) {
  const out: { status: OrderStatus; label: string; note: string | null; at: string }[] = [];
  for (const t of rows) {
    const note = timelineNote(t.reasonCode);
    const label = orderWords(t.toStatus).label;
    if (!note && out.at(-1)?.label === label) continue;
    out.push({ status: t.toStatus, label, note, at: t.at.toISOString() });
  }
  return out;
}

const lastReasons = async (q: Queryable, principal: PatientPrincipal, ids: string[]) => {
  if (ids.length === 0) return new Map<string, string | null>();
  const rows = await q
    .select({ orderId: orderTransitions.orderId, reasonCode: orderTransitions.reasonCode })
    .from(orderTransitions)
    .where(scoped(q, principal).where(orderTransitions, inArray(orderTransitions.orderId, ids)))
    .orderBy(asc(orderTransitions.id));
  return new Map(rows.map((r) => [r.orderId, r.reasonCode]));
};

/** `GET /v1/patient/orders`: the patient's orders, newest first, each in words; one access-log entry. */
export async function listPatientOrders(db: Db, principal: PatientPrincipal, requestId: string | null) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(orders)
      .where(scoped(tx, principal).where(orders, eq(orders.patientId, principal.patientId)))
      .orderBy(desc(orders.id))
      .limit(PATIENT_ORDERS_SHOWN);
    const medications = await medicationsOf(tx, principal, rows);
    const reasons = await lastReasons(tx, principal, rows.map((r) => r.id));
    await recordPatientSelfAccess(tx, principal, 'list', requestId);
    return rows.map((r) => summaryOf(r, medications(r), reasons.get(r.id) ?? null));
  });
}

/** The answer of `GET /v1/patient/orders/{id}` (and of a shipping change), read in the caller's transaction. */
export async function patientOrderView(q: Queryable, principal: PatientPrincipal, order: OrderRow, address: PatientAddress | null) {
  const timeline = await q
    .select()
    .from(orderTransitions)
    .where(scoped(q, principal).where(orderTransitions, eq(orderTransitions.orderId, order.id)))
    .orderBy(asc(orderTransitions.id));
  const medications = await medicationsOf(q, principal, [order]);
  const pharmacy = order.connectionId ? await scoped(q, principal).get(pharmacyConnections, order.connectionId) : undefined;
  return {
    ...summaryOf(order, medications(order), timeline.at(-1)?.reasonCode ?? null),
    pharmacy: pharmacy ? { name: pharmacy.name } : null,
    shippingAddress: address,
    timeline: patientTimeline(timeline),
  };
}

/** `GET /v1/patient/orders/{id}`: one of the patient's orders with its timeline; another's is a 404. Logged. */
export async function getPatientOrder(db: Db, principal: PatientPrincipal, id: string, requestId: string | null) {
  return db.transaction(async (tx) => {
    const order = await requireOwnOrder(tx, principal, id);
    const patient = await requireOwnRecord(tx, principal);
    await recordPatientSelfAccess(tx, principal, 'read', requestId);
    return patientOrderView(tx, principal, order, patient.address);
  });
}
