import type { Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { getUsage } from '@/server/domain/billing/usage';
import { currentPeriod } from '@/server/domain/developer/usage-counters';
import { hasScope } from '@/server/domain/developer/scopes';
import { now } from '@/server/lib/clock';
import { approvalQueueSummary } from './approval-queue';
import { addDays, startOfUtcDay } from './days';
import { failingEndpoints } from './failing-webhooks';
import { intakeQueueSummary } from './intake-queue';
import { countOrdersByStatus } from './orders-by-status';

/** Which scope each block of the overview needs; a caller without it gets no such block, not an error. */
export const OVERVIEW_BLOCK_SCOPES = {
  orders: 'orders.read',
  approvalQueue: 'orders.read',
  intakeQueue: 'intake.review',
  webhooks: 'webhooks.manage',
  usage: 'usage.read',
} as const;

const when = async <T>(allowed: boolean, load: () => Promise<T>): Promise<T | undefined> => (allowed ? load() : undefined);

/**
 * The console's landing page in one read: orders by status today and this month (UTC), the approval
 * queue and beside it the intake review queue, failing webhook endpoints and usage against the plan, each
 * only when the caller's scopes reach it.
 */
export async function getOverview(q: Queryable, principal: TenantPrincipal, at: Date = now()) {
  const may = (block: keyof typeof OVERVIEW_BLOCK_SCOPES) => hasScope(principal.scopes, OVERVIEW_BLOCK_SCOPES[block]);
  const today = startOfUtcDay(at);
  const tomorrow = addDays(today, 1);
  const month = currentPeriod(at);
  const [todayCounts, monthCounts, approvalQueue, intakeQueue, webhooks, usage] = await Promise.all([
    when(may('orders'), () => countOrdersByStatus(q, principal, today, tomorrow)),
    when(may('orders'), () => countOrdersByStatus(q, principal, month.start, month.end)),
    when(may('approvalQueue'), () => approvalQueueSummary(q, principal, at)),
    when(may('intakeQueue'), () => intakeQueueSummary(q, principal, at)),
    when(may('webhooks'), () => failingEndpoints(q, principal)),
    when(may('usage'), () => getUsage(q, principal, at)),
  ]);
  return {
    object: 'overview' as const,
    mode: principal.livemode ? ('live' as const) : ('sandbox' as const),
    generatedAt: at.toISOString(),
    ...(todayCounts && monthCounts ? { orders: { today: todayCounts, month: monthCounts } } : {}),
    ...(approvalQueue ? { approvalQueue } : {}),
    ...(intakeQueue ? { intakeQueue } : {}),
    ...(webhooks ? { webhooks } : {}),
    ...(usage ? { usage } : {}),
  };
}
