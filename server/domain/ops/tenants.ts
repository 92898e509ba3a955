import { desc, eq, sql, type SQL } from 'drizzle-orm';
import { apiKeys, tenants } from '@/db/schema';
import type { Queryable } from '@/server/db/types';
import { describeKey } from '@/server/domain/developer/key-format';
import { OPS_SCOPE } from '@/server/domain/developer/scopes';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { featuresOf, type FeatureFlag } from './features';

export const PLANS = ['free', 'starter', 'growth', 'scale', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export function toTenantDto(row: typeof tenants.$inferSelect) {
  return { id: row.id, name: row.name, plan: row.plan as Plan, features: featuresOf(row.features), createdAt: row.createdAt.toISOString() };
}

export interface TenantChanges {
  plan?: Plan;
  features?: Partial<Record<FeatureFlag, boolean>>;
}

/**
 * Ops changes a tenant's plan or feature flags (DESIGN decision 16). Flags merge with the stored ones, so
 * turning one on never resets another; the merge happens in the statement, so two concurrent changes of
 * different flags both stick.
 */
export async function updateTenant(q: Queryable, tenantId: string, changes: TenantChanges) {
  const set: { plan?: Plan; features?: SQL } = {};
  if (changes.plan) set.plan = changes.plan;
  if (changes.features && Object.keys(changes.features).length > 0) {
    set.features = sql`coalesce(${tenants.features}, '{}'::jsonb) || ${JSON.stringify(changes.features)}::jsonb`;
  }
  if (Object.keys(set).length === 0) throw errors.validation('Send plan or at least one feature flag to change.', undefined, 'empty_update');
  const [row] = await q.update(tenants).set(set).where(eq(tenants.id, tenantId)).returning();
  if (!row) throw errors.notFound('tenant', tenantId);
  return toTenantDto(row);
}

export async function createTenant(q: Queryable, input: { name: string; plan?: Plan }) {
  const [row] = await q
    .insert(tenants)
    .values({ id: newId('tenant'), name: input.name, plan: input.plan ?? 'free' })
    .returning();
  return toTenantDto(row);
}

export async function listTenants(q: Queryable) {
  return (await q.select().from(tenants).orderBy(desc(tenants.id))).map(toTenantDto);
}

/** A tenant by id, or the spec's 404: ops routes that name a tenant in their path check it first. */
export async function requireTenant(q: Queryable, tenantId: string) {
  const [tenant] = await q.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!tenant) throw errors.notFound('tenant', tenantId);
  return tenant;
}

/** Ensures the platform ops key whose plaintext is OPS_BOOTSTRAP_KEY exists (DESIGN decision 15). */
export async function ensureOpsKey(q: Queryable, plaintext: string): Promise<void> {
  const facts = describeKey(plaintext);
  const [existing] = await q.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.hash, facts.hash)).limit(1);
  if (existing) return;
  await q
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      tenantId: null,
      livemode: true,
      name: 'Platform ops (bootstrap)',
      keyType: 'secret',
      prefix: facts.prefix,
      last4: facts.last4,
      hash: facts.hash,
      scopes: [OPS_SCOPE],
    })
    .onConflictDoNothing();
}
