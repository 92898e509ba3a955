import { NOTICE_CHANNELS, patientNotices, type NoticeCause, type NoticeMilestone, type NoticeSubjectKind, type OrderStatus } from '@/db/schema';
import type { AlsoInsert } from '@/server/db/scoped';
import { newId } from '@/server/lib/ids';

/** A milestone reached, with the cause when it is `needs_attention`. */
export interface Reached {
  milestone: NoticeMilestone;
  cause: NoticeCause | null;
}

/**
 * The order statuses a patient hears about (DESIGN decision 41). `submitted` is "approved and sent to the
 * pharmacy": the pharmacy has it. A rejection always needs attention: nothing reroutes an order on its own
 * (a reroute is the clinic's call, `POST /orders/{id}/reroute`), so the patient learns of the problem when it happens.
 */
const ORDER_MILESTONES: Partial<Record<OrderStatus, Reached>> = {
  submitted: { milestone: 'order_sent', cause: null },
  shipped: { milestone: 'order_shipped', cause: null },
  delivered: { milestone: 'order_delivered', cause: null },
  rejected: { milestone: 'needs_attention', cause: 'rejected' },
  cancelled: { milestone: 'needs_attention', cause: 'cancelled' },
};

/**
 * The milestone an order's walk reaches: that of the furthest status of the walk that has one (a pharmacy that
 * reports "delivered" for a submitted order walks shipped too; the patient hears "delivered", not both). A draft
 * cancelled is no news to a patient: no order was ever on its way.
 */
export function orderMilestone(from: OrderStatus, path: readonly OrderStatus[]): Reached | null {
  for (let i = path.length - 1; i >= 0; i--) {
    const reached = ORDER_MILESTONES[path[i]];
    if (!reached) continue;
    const before = i === 0 ? from : path[i - 1];
    if (path[i] === 'cancelled' && before === 'draft') return null;
    return reached;
  }
  return null;
}

/** One notice row per channel: whether each is sent is decided when the worker sends it (settings, choices, consent). */
export function noticeRows(subjectKind: NoticeSubjectKind, subjectId: string, reached: Reached, at: Date) {
  return NOTICE_CHANNELS.map((channel) => ({
    id: newId('patientNotice'),
    subjectKind,
    subjectId,
    milestone: reached.milestone,
    channel,
    cause: reached.cause,
    createdAt: at,
    updatedAt: at,
  }));
}

/**
 * The notices of an order's move, for `transition` to write in its own statement: only when the order moved, and
 * a milestone already recorded (a second `submitted` after a reroute, say) is left out, never an error, so a
 * notice can neither hold nor roll back the move. Null when the walk reaches no milestone.
 */
export function orderNotices(orderId: string, from: OrderStatus, path: readonly OrderStatus[], at: Date): AlsoInsert | null {
  const reached = orderMilestone(from, path);
  if (!reached) return null;
  return { table: patientNotices, rows: noticeRows('order', orderId, reached, at), skipDuplicates: true };
}
