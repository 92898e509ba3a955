import { count, gt, gte, isNull, lt, or, sql } from 'drizzle-orm';
import { apiKeys, orders } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { countEnabledWebhookEndpoints, countEventsThisPeriod, currentPeriod } from '@/server/domain/developer/usage-counters';
import { requireTenant } from '@/server/domain/ops/tenants';
import { now } from '@/server/lib/clock';
import { AppError } from '@/server/lib/errors';
import { orderCapFor } from './plans';
import { namedStatement } from '@/server/db/named-sql';

/**
 * The billable metric: the tenant's live orders first routed to a pharmacy this period. Sandbox is
 * unmetered, so the count is always of live rows, whatever mode asks. The bare `livemode` and the range on
 * `first_routed_at` match the partial index `orders_routed_idx`.
 */
export async function countOrdersRouted(q: Queryable, tenantId: string, at: Date = now()): Promise<number> {
  const { start, end } = currentPeriod(at);
  const [row] = await q
    .select({ n: count() })
    .from(orders)
    .where(
      scoped(q, { tenantId, livemode: true }).where(
        orders,
        sql`${orders.livemode}`,
        gte(orders.firstRoutedAt, start),
        lt(orders.firstRoutedAt, end),
      ),
    );
  return Number(row?.n ?? 0);
}

/** Keys that would authenticate now: not revoked and not expired (as `authenticateApiKey` judges them). */
async function countActiveApiKeys(q: Queryable, scope: Scope, at: Date): Promise<number> {
  const [row] = await q
    .select({ n: count() })
    .from(apiKeys)
    .where(scoped(q, scope).where(apiKeys, isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, at))));
  return Number(row?.n ?? 0);
}

const periodEndLabel = (end: Date) => end.toISOString().slice(0, 10);

/** Serialises the capped approvals of one tenant until their transactions end. */
const capLockStatement = namedStatement(() => sql`select pg_advisory_xact_lock(hashtext(${sql.placeholder('lock.key')}))`);

/**
 * DESIGN decision 13: at the plan's cap, approve/submit answers 403 `order_cap_reached`. The orders domain
 * calls this inside its transaction (the lock below lasts until that transaction ends). Sandbox is
 * unmetered; uncapped plans never throw.
 */
export async function assertUnderOrderCap(q: Queryable, scope: Scope, at: Date = now()): Promise<void> {
  if (!scope.livemode) return;
  const tenant = await requireTenant(q, scope.tenantId);
  const cap = orderCapFor(tenant.plan);
  if (cap === null) return;
  // Approvals of one capped tenant queue here until each commits, and orders already on their way to a
  // pharmacy count too: concurrent approvals at the cap cannot overshoot it.
  await capLockStatement.execute(q, 'lock', { lock: { key: `order-cap:${scope.tenantId}` } });
  const [inFlight] = await q
    .select({ n: count() })
    .from(orders)
    .where(scoped(q, scope).where(orders, sql`${orders.status} = 'submitting'`, isNull(orders.firstRoutedAt)));
  const routed = (await countOrdersRouted(q, scope.tenantId, at)) + Number(inFlight?.n ?? 0);
  if (routed < cap) return;
  throw new AppError(
    'permission_error',
    'order_cap_reached',
    403,
    `The '${tenant.plan}' plan routes at most ${cap} live orders per month and this month's ${cap} are used. ` +
      `The cap resets on ${periodEndLabel(currentPeriod(at).end)} (UTC); upgrade the plan to route more now. Sandbox orders are not metered.`,
  );
}

export interface Usage {
  object: 'usage';
  period: { start: string; end: string };
  plan: string;
  ordersRouted: number;
  orderCapPerMonth?: number;
  ordersRemaining?: number;
  activeApiKeys: number;
  enabledWebhookEndpoints: number;
  eventsThisPeriod: number;
}

/** The spec's Usage for the caller's tenant: the billable count is always live; the object counts are the caller's mode. */
export async function getUsage(q: Queryable, scope: Scope, at: Date = now()): Promise<Usage> {
  const tenant = await requireTenant(q, scope.tenantId);
  const cap = orderCapFor(tenant.plan);
  const period = currentPeriod(at);
  const [ordersRouted, activeApiKeys, enabledWebhookEndpoints, eventsThisPeriod] = await Promise.all([
    countOrdersRouted(q, scope.tenantId, at),
    countActiveApiKeys(q, scope, at),
    countEnabledWebhookEndpoints(q, scope),
    countEventsThisPeriod(q, scope, at),
  ]);
  return {
    object: 'usage',
    period: { start: period.start.toISOString(), end: period.end.toISOString() },
    plan: tenant.plan,
    ordersRouted,
    ...(cap === null ? {} : { orderCapPerMonth: cap, ordersRemaining: Math.max(0, cap - ordersRouted) }),
    activeApiKeys,
    enabledWebhookEndpoints,
    eventsThisPeriod,
  };
}
