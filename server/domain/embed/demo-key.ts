import { and, asc, desc, eq, isNull } from 'drizzle-orm';
import { embedKeys, questionnaires, tenants } from '@/db/schema';
import type { Queryable } from '@/server/db/types';
import { flowPublished } from './keys';

/** The tenant the demo seed creates (server/domain/seed/demo.ts); the seed runs only on an empty database. */
export const DEMO_CLINIC_NAME = 'Demo Clinic';

export interface DemoEmbed {
  embedKey: string;
  /** The questionnaire the intake widget asks (null in flow mode). */
  questionnaireKey: string | null;
}

/**
 * The demo clinic's sandbox embed key for `/embed/demo`: in flow mode a key serving a published flow, in
 * intake mode a key with no flow (else the flow key) and an approved questionnaire it serves. Null when this
 * server has no demo clinic (SEED_DEMO off) or the seed made no such key.
 */
export async function demoEmbed(q: Queryable, mode: 'flow' | 'intake'): Promise<DemoEmbed | null> {
  const [tenant] = await q.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, DEMO_CLINIC_NAME)).orderBy(asc(tenants.createdAt)).limit(1);
  if (!tenant) return null;
  const keys = await q
    .select()
    .from(embedKeys)
    .where(and(eq(embedKeys.tenantId, tenant.id), eq(embedKeys.livemode, false), isNull(embedKeys.revokedAt)))
    .orderBy(asc(embedKeys.createdAt));
  if (mode === 'flow') {
    for (const key of keys) if (key.flowId && (await flowPublished(q, key))) return { embedKey: key.id, questionnaireKey: null };
    return null;
  }
  const key = keys.find((k) => !k.flowId) ?? keys[0];
  if (!key) return null;
  const approved = await q
    .select({ key: questionnaires.key })
    .from(questionnaires)
    .where(and(eq(questionnaires.tenantId, tenant.id), eq(questionnaires.livemode, false), eq(questionnaires.status, 'approved')))
    .orderBy(desc(questionnaires.createdAt));
  const served = approved.map((r) => r.key).filter((k) => key.questionnaireKeys.length === 0 || key.questionnaireKeys.includes(k));
  const preferred = served.find((k) => k === 'weight-management') ?? served[0];
  return preferred ? { embedKey: key.id, questionnaireKey: preferred } : null;
}
