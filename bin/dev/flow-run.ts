import { FulfillmentRail, type Schemas } from '@/sdk/src/index';
import { UsageError } from '../cli-command';
import { answersFor, type Person } from './intake-answers';

type Step = Schemas['PublicFlow']['steps'][number];

const PERSON: Omit<Person, 'state'> = { dateOfBirth: '1984-03-09', sex: 'female' };
const CONTACT: Record<string, string> = {
  name: 'Trigger Testpatient',
  email: 'trigger.testpatient@example.test',
  dateOfBirth: PERSON.dateOfBirth,
  phone: '+14155550100',
  addressLine1: '1 Sandbox Way',
  addressLine2: '',
  city: 'Testville',
  postalCode: '90001',
};

/** A new session of the first published sandbox flow an embed key serves, opened as a patient's browser would. */
export async function flowSession(api: FulfillmentRail) {
  const keys = await api.list('/embed-keys').toArray();
  const key = keys.find((k) => k.flowId && !k.revokedAt && !k.livemode);
  if (!key) throw new UsageError('No sandbox embed key serves a flow in this tenant: create one for a published flow (the demo clinic has one).');
  const patientSide = new FulfillmentRail(null, { baseUrl: api.baseUrl });
  const flow = await patientSide.get('/public/flows/{embedKey}', { params: { path: { embedKey: key.id } } });
  const started = await patientSide.post('/public/flows/{embedKey}/sessions', { params: { path: { embedKey: key.id } }, body: {} });
  return { patientSide, embedKey: key.id, flow, sessionId: started.sessionId };
}

function stepAnswers(step: Step, medical: Record<string, unknown>, state: string): Record<string, unknown> {
  switch (step.kind) {
    case 'quiz':
      return Object.fromEntries(
        step.questions.map((q) => [q.id, q.type === 'boolean' ? false : q.type === 'string' ? 'none' : q.type === 'multi_choice' ? [q.options?.[0]?.value] : q.options?.[0]?.value]),
      );
    case 'medical':
      return Object.fromEntries(step.items.filter((i) => i.linkId in medical).map((i) => [i.linkId, medical[i.linkId]]));
    case 'consent':
      return { accepted: true, version: step.version };
    case 'contact':
      return Object.fromEntries(step.fields.map((f) => [f, f === 'state' ? state : CONTACT[f]]).filter(([, v]) => v));
    default:
      return {};
  }
}

/**
 * A patient's whole run of that flow to `verdict`, living in `state` (one a provider of the clinic is licensed in,
 * so the review it lands in can approve it): the clinical answers are found with the questionnaire's own engine
 * (the same code the service runs), every step is saved, then the run is submitted.
 */
export async function runFlowTo(api: FulfillmentRail, verdict: 'eligible' | 'disqualified', state: string) {
  const { patientSide, embedKey, flow, sessionId } = await flowSession(api);
  const { key, version } = flow.questionnaire;
  const questionnaire = await api.get('/intake/questionnaires/{key}', { params: { path: { key }, query: { version } } });
  const medical = answersFor(questionnaire.document, { ...PERSON, state }, verdict);
  if (!medical) throw new UsageError(`No answers found that questionnaire ${key} v${version} judges ${verdict}.`);
  const path = { embedKey, id: sessionId };
  for (const step of flow.steps.filter((s) => s.kind !== 'outcome')) {
    await patientSide.post('/public/flows/{embedKey}/sessions/{id}/steps', { params: { path }, body: { stepId: step.id, answers: stepAnswers(step, medical, state) } });
  }
  const result = await patientSide.post('/public/flows/{embedKey}/sessions/{id}/submit', { params: { path, header: { 'Idempotency-Key': crypto.randomUUID() } }, body: { patient: { name: CONTACT.name, email: CONTACT.email } } });
  return { ids: { flow: flow.flowId, embedKey, session: sessionId, verdict: result.verdict }, subject: sessionId };
}
