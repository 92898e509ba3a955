import { routingPolicies, type RoutingStrategy } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { connectionsById } from './connections';

export interface RoutingPolicy {
  strategy: RoutingStrategy;
  priority: string[];
  requireStateLicense: boolean;
  allowFallback: boolean;
}

/** DESIGN decision 12's defaults: cheapest qualifying pharmacy, state licensing enforced, fallback on. */
export const DEFAULT_POLICY: RoutingPolicy = { strategy: 'lowest_cost', priority: [], requireStateLicense: true, allowFallback: true };

const policyStatement = scopedStatement((own, q) => q.select().from(routingPolicies).where(own(routingPolicies)).limit(1));

/** The tenant's stored policy, or decision 12's defaults when it never set one. */
export const policyOrDefault = (row: (RoutingPolicy & { updatedAt: Date | null }) | null | undefined) => row ?? { ...DEFAULT_POLICY, updatedAt: null };

export async function loadPolicy(q: Queryable, scope: Scope): Promise<RoutingPolicy & { updatedAt: Date | null }> {
  const [row] = await scoped(q, scope).run(policyStatement, {});
  return policyOrDefault(row);
}

export function toPolicyDto(scope: Scope, p: RoutingPolicy & { updatedAt: Date | null }) {
  return {
    object: 'routing_policy' as const,
    livemode: scope.livemode,
    strategy: p.strategy,
    priority: p.priority,
    requireStateLicense: p.requireStateLicense,
    allowFallback: p.allowFallback,
    updatedAt: p.updatedAt?.toISOString() ?? null,
  };
}

export async function getPolicy(db: Db, scope: Scope) {
  return toPolicyDto(scope, await loadPolicy(db, scope));
}

/** Fields not sent keep their current value; every id in `priority` must be a connection of this tenant and mode. */
export async function setPolicy(db: Db, scope: Scope, changes: Partial<RoutingPolicy>) {
  const priority = changes.priority ?? [];
  const firstRepeat = priority.findIndex((id, i) => priority.indexOf(id) !== i);
  if (firstRepeat >= 0) throw errors.validation('A connection is listed twice in the priority list.', `priority.${firstRepeat}`, 'duplicate_connection');
  const known = await connectionsById(db, scope, priority);
  const unknown = priority.findIndex((id) => !known.has(id));
  if (unknown >= 0) {
    throw errors.validation('No pharmacy connection of this tenant and mode has this id.', `priority.${unknown}`, 'unknown_connection');
  }
  return db.transaction(async (tx) => {
    const next = { ...(await loadPolicy(tx, scope)), ...changes, updatedAt: now() };
    const values = { strategy: next.strategy, priority: next.priority, requireStateLicense: next.requireStateLicense, allowFallback: next.allowFallback, updatedAt: next.updatedAt };
    await tx
      .insert(routingPolicies)
      .values({ id: newId('routingPolicy'), tenantId: scope.tenantId, livemode: scope.livemode, ...values })
      .onConflictDoUpdate({ target: [routingPolicies.tenantId, routingPolicies.livemode], set: values });
    return toPolicyDto(scope, next);
  });
}
