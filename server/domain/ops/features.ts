import { eq } from 'drizzle-orm';
import { tenants, type TenantFeatures } from '@/db/schema';
import type { Queryable } from '@/server/db/types';
import { errors } from '@/server/lib/errors';

export const FEATURE_FLAGS = ['flow_checkout', 'flow_ai_freeform_medical'] as const satisfies readonly (keyof TenantFeatures)[];
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** Every flag with its value; a flag never set is off (DESIGN decision 16). */
export function featuresOf(stored: Partial<TenantFeatures> | null | undefined): TenantFeatures {
  return { flow_checkout: stored?.flow_checkout === true, flow_ai_freeform_medical: stored?.flow_ai_freeform_medical === true };
}

export async function tenantFeatures(q: Queryable, tenantId: string): Promise<TenantFeatures> {
  const [row] = await q.select({ features: tenants.features }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return featuresOf(row?.features);
}

/** 403 `feature_disabled`, naming the flag, unless the tenant has it on. */
export async function requireFeature(q: Queryable, tenantId: string, flag: FeatureFlag): Promise<void> {
  const features = await tenantFeatures(q, tenantId);
  if (!features[flag]) throw errors.forbidden(`This call needs the '${flag}' feature, which is off for this clinic; platform operators can turn it on.`, 'feature_disabled');
}
