import type { orderTransitions } from '@/db/schema';
import type { OrderRow } from './lifecycle';

type TransitionRow = typeof orderTransitions.$inferSelect;

/** The spec's Order: no patient details, so lists carry no PHI beyond ids. */
export function toOrderDto(row: OrderRow) {
  return {
    id: row.id,
    object: 'order' as const,
    livemode: row.livemode,
    status: row.status,
    source: row.source,
    priority: row.priority,
    foreignOrderId: row.foreignOrderId,
    patientId: row.patientId,
    pharmacyConnectionId: row.connectionId,
    items: row.items,
    amberFields: row.amberFields,
    rejectionReasonCode: row.rejectionReasonCode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    approvedAt: row.approvedAt?.toISOString() ?? null,
  };
}

export const toTimelineEntry = (t: TransitionRow) => ({
  from: t.fromStatus,
  to: t.toStatus,
  at: t.at.toISOString(),
  actorKind: t.actorKind,
  actorId: t.actorId,
  reasonCode: t.reasonCode,
});
