import { embedKeys, flows, flowVersions } from '@/db/schema';
import { clinicalPlaneHash } from '@/server/domain/flows/clinical-plane';
import type { FlowDocument } from '@/server/domain/flows/flow-schema';
import { newEmbedKeyId } from '@/server/domain/embed/keys';
import { newId } from '@/server/lib/ids';
import type { Clinic, TestApp } from './harness';
import { approvedQuestionnaire, weightDocument } from './intake-world';

/** A flow over `weightDocument` (tests/helpers/intake-world.ts): landing, quiz, two medical pages, consent, contact, outcome. */
export function weightFlowDocument(questionnaireKey: string, extra: Partial<FlowDocument['settings']> = {}): FlowDocument {
  return {
    steps: [
      { id: 'welcome', kind: 'landing', blocks: { headline: 'Lose weight with a clinician', body: 'Answer a few questions.', cta: 'Start' } },
      {
        id: 'goals',
        kind: 'quiz',
        blocks: { title: 'What brings you here?' },
        questions: [{ id: 'motivation', text: 'Main reason', type: 'choice', required: true, options: [{ value: 'health', label: 'Health' }, { value: 'energy', label: 'Energy' }] }],
      },
      { id: 'body', kind: 'medical', title: 'About you', linkIds: ['dob', 'height', 'weight'] },
      { id: 'history', kind: 'medical', title: 'Your health', linkIds: ['pregnant', 'takesMeds', 'meds', 'goal'] },
      { id: 'consent', kind: 'consent', title: 'Consent', text: 'I agree to a telehealth review of my answers.', version: '2026-01' },
      { id: 'contact', kind: 'contact', title: 'Where to reach you' },
      {
        id: 'result',
        kind: 'outcome',
        blocks: { eligibleTitle: 'You may be eligible', eligibleBody: 'A clinician will review your answers.', disqualifiedTitle: 'We cannot help online', disqualifiedBody: 'Please talk to your doctor.' },
      },
    ],
    theme: { tokens: { primary: '#0f766e', radius: '12px' } },
    settings: { questionnaireKey, ...extra },
  };
}

export interface PinnedQuestionnaireRef {
  id: string;
  key: string;
  version: number;
  contentHash: string;
}

/**
 * The clinic's live weight questionnaire (key `weight`), approved, ordering a protocol of one product made through
 * the API, so that a flow's copy or theme change publishes at once.
 */
export async function liveWeightQuestionnaire(app: TestApp, clinic: Clinic, sku: string): Promise<PinnedQuestionnaireRef> {
  const product = await app.request('POST', '/v1/products', { key: clinic.liveKey, body: { sku, name: 'Semaglutide pen', form: 'injection', rxRequired: true, active: true } });
  if (product.status !== 201) throw new Error(product.text);
  const items = [{ productId: product.body.id, quantity: 1, sig: 'Inject weekly', refills: 0 }];
  const protocol = await app.request('POST', '/v1/protocols', { key: clinic.liveKey, body: { name: 'GLP-1 start', active: true, items } });
  if (protocol.status !== 201) throw new Error(protocol.text);
  return approvedQuestionnaire(app, { tenantId: clinic.tenantId, livemode: true }, weightDocument('weight', protocol.body.id));
}

/**
 * Inserts a flow whose version 1 is published and provider-approved, and a sandbox or live embed key serving
 * it, straight into the tables (for runtime tests written beside the authoring endpoints).
 */
export async function publishedFlow(
  app: TestApp,
  scope: { tenantId: string; livemode: boolean },
  questionnaire: PinnedQuestionnaireRef,
  document: FlowDocument,
  opts: { allowedOrigins?: string[]; approvedBy?: string } = {},
) {
  const db = app.services.database.db;
  const at = new Date();
  const flowId = newId('flow');
  const versionId = newId('flowVersion');
  const approvedBy = opts.approvedBy ?? 'usr_01jzzzzzzzzzzzzzzzzzzzzzzz';
  const hash = clinicalPlaneHash(document, questionnaire);
  await db.insert(flows).values({
    id: flowId,
    ...scope,
    name: 'Weight flow',
    status: 'active',
    draft: document,
    activeVersionId: versionId,
    origin: 'staff',
    createdBy: approvedBy,
    createdAt: at,
    updatedAt: at,
  });
  await db.insert(flowVersions).values({
    id: versionId,
    ...scope,
    flowId,
    number: 1,
    status: 'published',
    document,
    questionnaireId: questionnaire.id,
    questionnaireKey: questionnaire.key,
    questionnaireVersion: questionnaire.version,
    clinicalPlaneHash: hash,
    publishedBy: approvedBy,
    approvedBy,
    approvedAt: at,
    approvedHere: true,
    publishedAt: at,
    createdAt: at,
  });
  const embedKey = newEmbedKeyId();
  await db.insert(embedKeys).values({
    id: embedKey,
    ...scope,
    name: 'flow key',
    allowedOrigins: opts.allowedOrigins ?? ['https://clinic.example'],
    flowId,
    questionnaireKeys: [],
    createdAt: at,
    updatedAt: at,
  });
  return { flowId, versionId, embedKey, clinicalPlaneHash: hash };
}
