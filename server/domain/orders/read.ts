import { asc, eq, inArray } from 'drizzle-orm';
import { orders, orderTransitions, patients, pharmacyConnections, products, type OrderStatus } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { recordAccess } from '@/server/domain/patients/access-log';
import { toPatientDto } from '@/server/domain/patients/patients';
import { hasScope } from '@/server/domain/developer/scopes';
import { toOrderDto, toTimelineEntry } from './dto';
import { NOT_RECALLED, RECALLED } from './recall';

/** The pharmacy's last answer to a cancel request, as its timeline note recorded it. */
function recallOf(timeline: { reasonCode: string | null }[]) {
  const last = timeline.findLast((t) => t.reasonCode === RECALLED || t.reasonCode === NOT_RECALLED);
  return last ? (last.reasonCode === RECALLED ? ('recalled' as const) : ('not_recalled' as const)) : null;
}

export async function listOrders(db: Db, scope: Scope, q: { status?: OrderStatus; limit: number; startingAfter?: string }) {
  const rows = await scoped(db, scope).list(orders, { limit: q.limit, startingAfter: q.startingAfter, where: q.status ? eq(orders.status, q.status) : undefined });
  return rows.map(toOrderDto);
}

/**
 * The order with its patient, prescriptions, pharmacy, shipment and timeline. The patient's record is
 * disclosed only to callers who may read patients (`patients.read`; others get `patient: null`), and
 * each disclosure is written to the patient access log in the same transaction.
 */
export async function getOrderDetail(db: Db, principal: TenantPrincipal, id: string, requestId: string | null) {
  return db.transaction(async (tx) => {
    const s = scoped(tx, principal);
    const order = await s.require(orders, id, 'order');
    // One after another: a transaction is one connection, which runs one query at a time anyway.
    const readsPatients = hasScope(principal.scopes, 'patients.read');
    const patient = order.patientId && readsPatients ? await s.get(patients, order.patientId) : undefined;
    const timeline = await tx.select().from(orderTransitions).where(s.where(orderTransitions, eq(orderTransitions.orderId, id))).orderBy(asc(orderTransitions.id));
    const lines = await tx
      .select({ id: products.id, name: products.name, sku: products.sku, form: products.form, strength: products.strength })
      .from(products)
      .where(s.where(products, inArray(products.id, order.items.map((i) => i.productId))));
    const pharmacy = order.connectionId ? await s.get(pharmacyConnections, order.connectionId) : undefined;
    if (patient) await recordAccess(tx, principal, [patient.id], 'read', requestId);
    const product = new Map(lines.map((p) => [p.id, p]));
    return {
      ...toOrderDto(order),
      approvedBy: order.approvedBy,
      patient: patient ? toPatientDto(patient) : null,
      prescriptions: order.items.map((item) => {
        const p = product.get(item.productId);
        return { ...item, name: p?.name ?? null, sku: p?.sku ?? null, form: p?.form ?? null, strength: p?.strength ?? null };
      }),
      pharmacy: pharmacy ? { id: pharmacy.id, name: pharmacy.name, adapter: pharmacy.adapter } : null,
      routing: order.routing ?? null,
      shipment: order.shipment ?? null,
      // A note is free text about the patient's care (a decline's reason): PHI, for those who may read patients.
      timeline: timeline.map((t) => ({ ...toTimelineEntry(t), note: readsPatients ? t.note : null })),
      pharmacyRecall: recallOf(timeline),
    };
  });
}
