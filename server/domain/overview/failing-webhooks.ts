import { and, count, inArray } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { lastDeliveries } from '@/server/domain/webhooks/deliveries';

const FAILED = ['failed', 'dead'] as const;

export interface FailingEndpoint {
  id: string;
  url: string;
  status: 'enabled' | 'disabled';
  /** Failed or dead deliveries among the endpoint's kept history (its newest 50). */
  failedDeliveries: number;
  lastDelivery: { eventType: string; status: 'failed' | 'dead'; at: string; responseCode: number | null; error: string | null };
}

/**
 * Endpoints whose newest delivery did not arrive (still retrying, or given up): the ones a developer has to
 * look at. One that succeeded since is healthy again, whatever failed before it.
 */
export async function failingEndpoints(q: Queryable, scope: Scope): Promise<{ endpoints: number; failing: FailingEndpoint[] }> {
  const all = await q
    .select({ id: webhookEndpoints.id, url: webhookEndpoints.url, status: webhookEndpoints.status })
    .from(webhookEndpoints)
    .where(scoped(q, scope).where(webhookEndpoints))
    .orderBy(webhookEndpoints.id);
  const last = await lastDeliveries(q, scope, all.map((e) => e.id));
  const failing = all.filter((e) => (FAILED as readonly string[]).includes(last.get(e.id)?.status ?? ''));
  if (failing.length === 0) return { endpoints: all.length, failing: [] };
  const tallies = await q
    .select({ endpointId: webhookDeliveries.endpointId, n: count() })
    .from(webhookDeliveries)
    .where(scoped(q, scope).where(webhookDeliveries, and(inArray(webhookDeliveries.endpointId, failing.map((e) => e.id)), inArray(webhookDeliveries.status, [...FAILED]))))
    .groupBy(webhookDeliveries.endpointId);
  const failedCount = new Map(tallies.map((t) => [t.endpointId, Number(t.n)]));
  return {
    endpoints: all.length,
    failing: failing.map((e) => {
      const d = last.get(e.id)!;
      return {
        ...e,
        failedDeliveries: failedCount.get(e.id) ?? 0,
        lastDelivery: { eventType: d.eventType, status: d.status as 'failed' | 'dead', at: (d.lastAttemptAt ?? d.createdAt).toISOString(), responseCode: d.responseCode, error: d.lastError },
      };
    }),
  };
}
