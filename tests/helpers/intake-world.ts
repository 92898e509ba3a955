import { questionnaires } from '@/db/schema';
import type { QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import { canonicalHash } from '@/server/lib/canonical';
import { newId } from '@/server/lib/ids';
import type { TestApp } from './harness';

/**
 * A weight-management questionnaire: under 18 or pregnant disqualifies, a BMI of 40 or more flags for review,
 * and the medication question only counts when the patient takes any.
 */
export function weightDocument(key: string, protocolId?: string): QuestionnaireDocument {
  return {
    key,
    title: 'Weight management',
    ...(protocolId ? { protocolId } : {}),
    items: [
      { linkId: 'dob', text: 'Date of birth', type: 'date', required: true },
      { linkId: 'height', text: 'Height', type: 'decimal', required: true, unit: 'cm', min: 50, max: 250 },
      { linkId: 'weight', text: 'Weight', type: 'decimal', required: true, unit: 'kg', min: 20, max: 400 },
      { linkId: 'pregnant', text: 'Are you pregnant or breastfeeding?', type: 'boolean', required: true },
      { linkId: 'takesMeds', text: 'Do you take any medication?', type: 'boolean', required: true },
      { linkId: 'meds', text: 'Which medications?', type: 'text', required: true, enableWhen: { q: 'takesMeds', op: 'eq', value: true } },
      { linkId: 'goal', text: 'Your goal', type: 'choice', required: false, options: [{ value: 'lose', label: 'Lose weight' }, { value: 'keep', label: 'Keep it off' }] },
    ],
    rules: [
      { id: 'minor', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'This treatment is for adults only.' },
      { id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'This treatment is not safe during pregnancy.' },
      { id: 'severe_obesity', when: { q: 'bmi(height, weight)', op: 'gte', value: 40 }, effect: 'review_flag', patientMessage: 'A clinician will look at your answers closely.' },
    ],
  };
}

/**
 * Inserts an approved questionnaire version for a tenant and mode straight into the table (the
 * questionnaire endpoints are built beside this work; tests can switch to them later).
 */
export async function approvedQuestionnaire(app: TestApp, scope: { tenantId: string; livemode: boolean }, document: QuestionnaireDocument, version = 1) {
  const at = new Date();
  const id = newId('questionnaire');
  await app.services.database.db.insert(questionnaires).values({
    id,
    tenantId: scope.tenantId,
    livemode: scope.livemode,
    key: document.key,
    version,
    status: 'approved',
    origin: 'staff',
    document,
    contentHash: canonicalHash(document),
    createdBy: 'usr_test',
    approvedBy: 'usr_test',
    approvedAt: at,
    createdAt: at,
    updatedAt: at,
  });
  return { id, key: document.key, version, contentHash: canonicalHash(document) };
}

/** Answers that make an adult, non-pregnant patient with a BMI of about 29 eligible. */
export const eligibleAnswers = (extra: Record<string, unknown> = {}) => ({ dob: '1980-04-02', height: 170, weight: 84, pregnant: false, takesMeds: false, goal: 'lose', ...extra });

/** The same through the API: a key publishes the version, a provider session approves it (DESIGN decision 18). */
export async function publishAndApprove(app: TestApp, key: string, providerToken: string, document: QuestionnaireDocument) {
  const published = await app.request('POST', '/v1/intake/questionnaires', { key, body: document });
  if (published.status !== 201) throw new Error(`publish failed: ${published.status} ${published.text}`);
  const approved = await app.request('POST', `/v1/intake/questionnaires/${published.body.id}/approve`, { key: providerToken, body: {} });
  if (approved.status !== 200 && approved.status !== 201) throw new Error(`approve failed: ${approved.status} ${approved.text}`);
  return { id: approved.body.id as string, key: document.key, version: approved.body.version as number, contentHash: approved.body.contentHash as string };
}
