import { eq, gte } from 'drizzle-orm';
import { orders, orderTransitions, type OrderStatus } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { actorOf } from './actor';
import { toOrderDto } from './dto';

/**
 * Approve and submit cannot share a transaction with their Idempotency-Key claim (they call the pharmacy
 * mid-request), so a process that dies after their move committed leaves the claim unfinished. The retry
 * that takes the claim over asks here whether the caller moved the order out of `from` since that claim
 * began; if so, the committed result is the order as it is now, and nothing runs again.
 */
export async function committedMove(db: Queryable, principal: TenantPrincipal, orderId: string, from: OrderStatus, since: Date) {
  const s = scoped(db, principal);
  const actor = actorOf(principal);
  const [moved] = await db
    .select({ id: orderTransitions.id })
    .from(orderTransitions)
    .where(
      s.where(
        orderTransitions,
        eq(orderTransitions.orderId, orderId),
        eq(orderTransitions.fromStatus, from),
        eq(orderTransitions.actorKind, actor.kind),
        actor.id ? eq(orderTransitions.actorId, actor.id) : undefined,
        gte(orderTransitions.at, since),
      ),
    )
    .limit(1);
  const order = moved ? await s.get(orders, orderId) : undefined;
  return order ? toOrderDto(order) : null;
}
