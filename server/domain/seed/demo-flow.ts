import { and, asc, eq, isNull } from 'drizzle-orm';
import { embedKeys, flows, flowVersions, tenants } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Queryable, Tx } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { createEmbedKey, flowPublished } from '@/server/domain/embed/keys';
import { emitEvent } from '@/server/domain/events/emit';
import { clinicalPlaneHash } from '@/server/domain/flows/clinical-plane';
import { composeFlowDocument } from '@/server/domain/flows/clinical-steps';
import { coverageProblem } from '@/server/domain/flows/publish-checks';
import { parseFlowDocument } from '@/server/domain/flows/flow-schema';
import { topicCopy } from '@/server/domain/flows/presentation-library';
import { findApprovedQuestionnaire } from '@/server/domain/intake/questionnaire-store';
import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import { newId } from '@/server/lib/ids';
import { DEMO_OUTCOME_LINK } from './demo-outcome';

export const DEMO_TENANT_NAME = 'Demo Clinic';
export const DEMO_FLOW_NAME = 'Medical weight loss (demo)';
/** The name that marks the demo flow's embed key; `demoFlowEmbedKey` finds the key by it. */
export const DEMO_FLOW_KEY_NAME = 'Demo flow (sandbox)';
const DEMO_QUESTIONNAIRE = 'weight-management';

/**
 * The demo clinic's published weight-management flow and the sandbox embed key serving it, written with the
 * rows publication writes (DESIGN decision 23): the draft, version 1 `published` with the questionnaire
 * pinned, its clinical-plane hash approved by the demo provider, and `flow.published`, in the seed's
 * transaction. The key allows no extra origin: sandbox keys skip the Origin check and the service's own
 * origin (the hosted page, /embed/demo) always matches.
 */
export async function seedDemoFlow(tx: Tx, seeder: TenantPrincipal, providerId: string) {
  const questionnaire = await findApprovedQuestionnaire(tx, seeder, DEMO_QUESTIONNAIRE);
  if (!questionnaire) throw new Error(`the demo flow needs the approved '${DEMO_QUESTIONNAIRE}' questionnaire`);
  const source = questionnaire.document as QuestionnaireDocument;
  const copy = topicCopy('weight');
  // The outcome's button leads somewhere: a label without an address would only be said as a next step.
  const presentation = { ...copy.presentation, outcome: { ...copy.presentation.outcome, ...DEMO_OUTCOME_LINK } };
  // The questionnaire's own protocol, named in the flow so the console shows what an approval orders.
  const document = parseFlowDocument(composeFlowDocument(source, presentation, source.protocolId ? { protocolId: source.protocolId } : {}));
  const problem = coverageProblem(document, questionnaire);
  if (problem) throw new Error(`the demo flow does not cover its questionnaire: ${problem.param} ${problem.message}`);
  const hash = clinicalPlaneHash(document, questionnaire);
  const s = scoped(tx, seeder);
  const now = new Date();
  const flowId = newId('flow');
  const versionId = newId('flowVersion');
  const seededBy = seeder.keyId ?? 'seed';
  await s.insert(flows, {
    id: flowId,
    name: DEMO_FLOW_NAME,
    status: 'active',
    draft: document,
    activeVersionId: versionId,
    pendingVersionId: null,
    origin: 'staff',
    createdBy: seededBy,
    archivedAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await s.insert(flowVersions, {
    id: versionId,
    flowId,
    number: 1,
    status: 'published',
    document,
    questionnaireId: questionnaire.id,
    questionnaireKey: questionnaire.key,
    questionnaireVersion: questionnaire.version,
    clinicalPlaneHash: hash,
    publishedBy: seededBy,
    approvedBy: providerId,
    approvedAt: now,
    approvedHere: true,
    publishedAt: now,
    createdAt: now,
  });
  await emitEvent(tx, seeder, 'flow.published', { flowId, versionId, flowVersionId: versionId, clinicalPlaneHash: hash, approvedBy: providerId });
  const key = await createEmbedKey(tx, seeder, { name: DEMO_FLOW_KEY_NAME, allowedOrigins: [], flowId });
  return { flowId, versionId, embedKey: key.id, clinicalPlaneHash: hash };
}

/**
 * The demo clinic's sandbox key serving its published flow, or null (no demo seeded, key revoked, flow
 * archived). For `npm start`'s banner and the `/embed/demo` page; the key is public by design.
 */
export async function demoFlowEmbedKey(q: Queryable): Promise<string | null> {
  // Unscoped by nature: it looks for the demo tenant itself. The oldest match is the seed's.
  const rows = await q
    .select({ key: embedKeys })
    .from(embedKeys)
    .innerJoin(tenants, eq(tenants.id, embedKeys.tenantId))
    .where(and(eq(tenants.name, DEMO_TENANT_NAME), eq(embedKeys.name, DEMO_FLOW_KEY_NAME), eq(embedKeys.livemode, false), isNull(embedKeys.revokedAt)))
    .orderBy(asc(embedKeys.createdAt))
    .limit(1);
  const key = rows[0]?.key;
  return key && (await flowPublished(q, key)) ? key.id : null;
}
