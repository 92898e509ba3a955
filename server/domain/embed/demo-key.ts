import { desc, eq } from 'drizzle-orm';
import { scoped } from '@/server/db/scoped';
import { embedKeys, questionnaires } from '@/db/schema';
import type { Queryable } from '@/server/db/types';
import { demoFlowEmbedKey } from '@/server/domain/seed/demo-flow';

export interface DemoEmbed {
  embedKey: string;
  /** The questionnaire the intake widget asks (null in flow mode). */
  questionnaireKey: string | null;
}

const DEMO_QUESTIONNAIRE = 'weight-management';

/**
 * The demo clinic's sandbox embed key for `/embed/demo`: the seed's key serving its published flow. The intake
 * widget uses the same key (it serves every approved questionnaire of the clinic) with the weight-management
 * questionnaire, else the newest approved one it serves. Null when this server has no demo clinic (SEED_DEMO
 * off) or its key was revoked or its flow archived.
 */
export async function demoEmbed(q: Queryable, mode: 'flow' | 'intake'): Promise<DemoEmbed | null> {
  const embedKey = await demoFlowEmbedKey(q);
  if (!embedKey) return null;
  if (mode === 'flow') return { embedKey, questionnaireKey: null };
  const [key] = await q.select().from(embedKeys).where(eq(embedKeys.id, embedKey)).limit(1);
  // The key names the tenant and mode; the scoped helper applies them.
  const approved = await q
    .select({ key: questionnaires.key })
    .from(questionnaires)
    .where(scoped(q, key).where(questionnaires, eq(questionnaires.status, 'approved')))
    .orderBy(desc(questionnaires.createdAt));
  const served = approved.map((r) => r.key).filter((k) => key.questionnaireKeys.length === 0 || key.questionnaireKeys.includes(k));
  const chosen = served.find((k) => k === DEMO_QUESTIONNAIRE) ?? served[0];
  return chosen ? { embedKey, questionnaireKey: chosen } : null;
}

/** An embed key by its id, for `/embed/demo?k=`: the key names its own tenant and mode, like a public call's. */
export async function findEmbedKey(q: Queryable, id: string): Promise<{ livemode: boolean } | null> {
  const [key] = await q.select({ livemode: embedKeys.livemode }).from(embedKeys).where(eq(embedKeys.id, id)).limit(1);
  return key ?? null;
}
