import { eq, isNotNull, isNull, or } from 'drizzle-orm';
import { flowSessions, intakeSubmissions, orders } from '@/db/schema';
import { withSavepoint } from '@/server/db/savepoint';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable, Tx } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { logger } from '@/server/lib/logger';

type SessionRow = typeof flowSessions.$inferSelect;

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * The store's order id for a flow submission whose checkout completed (DESIGN decision 28), found by the
 * submission's session (or, for a row written before it named one, the session naming the submission).
 * Undefined for other submissions and for checkouts not (yet) completed.
 */
export async function checkoutOrderIdOf(q: Queryable, scope: Scope, submission: { id: string; flowSessionId: string | null }): Promise<string | undefined> {
  const s = scoped(q, scope);
  const bySession = submission.flowSessionId ? eq(flowSessions.id, submission.flowSessionId) : undefined;
  const [row] = await q
    .select({ externalOrderId: flowSessions.externalOrderId })
    .from(flowSessions)
    .where(s.where(flowSessions, or(bySession, eq(flowSessions.submissionId, submission.id)), isNotNull(flowSessions.externalOrderId)))
    .limit(1);
  return row?.externalOrderId ?? undefined;
}

/**
 * A checkout that completes after the provider approved: the order already exists, so it gets the store's id
 * now. An order that has one keeps it, and an id another flow order of the clinic holds (the unique index per
 * tenant, mode and source) is left off rather than failing the store's callback; both are logged by id.
 */
export async function linkOrderToCheckout(tx: Tx, scope: Scope, session: SessionRow): Promise<void> {
  if (!session.externalOrderId) return;
  const s = scoped(tx, scope);
  const bySubmission = session.submissionId ? eq(intakeSubmissions.id, session.submissionId) : undefined;
  const [submission] = await tx
    .select({ orderId: intakeSubmissions.orderId })
    .from(intakeSubmissions)
    .where(s.where(intakeSubmissions, or(bySubmission, eq(intakeSubmissions.flowSessionId, session.id)), isNotNull(intakeSubmissions.orderId)))
    .limit(1);
  if (!submission?.orderId) return;
  const orderId = submission.orderId;
  const externalOrderId = session.externalOrderId;
  try {
    const [set] = await withSavepoint(tx, (q) =>
      q
        .update(orders)
        .set({ foreignOrderId: externalOrderId, updatedAt: now() })
        .where(s.where(orders, eq(orders.id, orderId), isNull(orders.foreignOrderId)))
        .returning({ id: orders.id }),
    );
    if (!set) logger.warn({ orderId, sessionId: session.id }, 'checkout completed for an order that already has a foreignOrderId; kept the existing one');
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    logger.warn({ orderId, sessionId: session.id }, 'checkout order id already on another flow order; not set on this one');
  }
}
