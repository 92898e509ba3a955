import { and, asc, count, eq, inArray, lt } from 'drizzle-orm';
import { orders, pharmacyCallbacks } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';

/**
 * Spec: the counts of pharmacy callbacks that were kept but could not be applied (all 0 in a healthy
 * tenant), and the orders stuck in `submitting` longer than `stuckAfterMs`.
 */
export async function reconciliation(db: Db, scope: Scope, stuckAfterMs: number) {
  const s = scoped(db, scope);
  const counts = await db
    .select({ outcome: pharmacyCallbacks.outcome, n: count() })
    .from(pharmacyCallbacks)
    .where(s.where(pharmacyCallbacks, inArray(pharmacyCallbacks.outcome, ['unmatched', 'bad_signature', 'bad_payload'])))
    .groupBy(pharmacyCallbacks.outcome);
  const of = (o: string) => Number(counts.find((c) => c.outcome === o)?.n ?? 0);
  const cutoff = new Date(now().getTime() - stuckAfterMs);
  const stuck = await db
    .select({ id: orders.id, pharmacyConnectionId: orders.connectionId, updatedAt: orders.updatedAt })
    .from(orders)
    .where(s.where(orders, and(eq(orders.status, 'submitting'), lt(orders.updatedAt, cutoff))))
    .orderBy(asc(orders.updatedAt))
    .limit(100);
  return {
    object: 'reconciliation' as const,
    livemode: scope.livemode,
    unmatchedCallbacks: of('unmatched'),
    unverifiedCallbacks: of('bad_signature'),
    malformedCallbacks: of('bad_payload'),
    stuckSubmitting: stuck.map((o) => ({ orderId: o.id, pharmacyConnectionId: o.pharmacyConnectionId, since: o.updatedAt.toISOString() })),
    stuckThresholdSeconds: Math.round(stuckAfterMs / 1000),
  };
}
