import { sql } from 'drizzle-orm';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { ageOn, dayNumber } from '@/server/domain/intake/shared/derived';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { countRows, createUserAndLogin, startTestApp, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { ordersWorld, providerSession } from './helpers/orders-world';
import { query } from './helpers/dispatch';
import { trpcFailure } from './helpers/trpc';

/*
 * Issue 33, item 3 (DESIGN decision 33): the console's review page shows the person behind a submission
 * (name, date of birth and age at submission, sex at birth, state, e-mail, BMI), whether the signed-in
 * provider is licensed in that state, and the flow version; showing the person is a PHI read, written to
 * the patient's access log once per read. The review queue leads with the patient's name, age and state.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;
let app: TestApp;
let w: World;
let caSubmission: string;
let txSubmission: string;

const trpc = (token: string) => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}` } })] });
const submit = async (questionnaireKey: string, patientId: string, answers: Record<string, unknown>) => {
  const res = await app.request('POST', '/v1/intake/submissions', { key: w.key, body: { questionnaireKey, patientId, answers } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};
const accessLog = (patientId: string) =>
  query<{ action: string; actor_id: string; request_id: string | null }>(app, sql`select action, actor_id, request_id from patient_access_log where patient_id = ${patientId} order by id`);
const ageToday = (dob: string) => ageOn(dayNumber(dob), dayNumber(new Date().toISOString().slice(0, 10)));

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000', EMBED_RATE_LIMIT: '100000' });
  w = await ordersWorld(app, 'Console review');
  await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument('weight'));
  caSubmission = await submit('weight', w.patients.ca, eligibleAnswers());
  txSubmission = await submit('weight', w.patients.tx, eligibleAnswers());
});
afterAll(async () => {
  await app?.close();
});

describe('intake.submissionForReview: the person', () => {
  it('shows name, date of birth and age at submission, sex at birth, state, e-mail and BMI, and the licence match', async () => {
    const s = await trpc(w.provider.token).intake.submissionForReview.query({ id: caSubmission });
    expect(s).toMatchObject({ id: caSubmission, patientState: 'CA', reviewerLicensed: true, questionnaireTitle: 'Weight management', flow: null });
    // 170 cm and 84 kg: the pair the rule `bmi(height, weight)` names.
    expect(s.person).toEqual({
      firstName: 'Quinn',
      lastName: 'PlantednameCA',
      email: 'quinn.ca@plantedmail.test',
      dateOfBirth: '1971-07-17',
      ageAtSubmission: ageToday('1971-07-17'),
      sexAtBirth: 'female',
      state: 'CA',
      bmi: { value: 29.1, height: { value: 170, unit: 'cm' }, weight: { value: 84, unit: 'kg' } },
    });
    expect(s).not.toHaveProperty('answers');
  });

  it('a provider not licensed in the patient’s state reads reviewerLicensed false; an admin (no provider) reads null', async () => {
    expect(await trpc(w.provider.token).intake.submissionForReview.query({ id: txSubmission })).toMatchObject({ patientState: 'TX', reviewerLicensed: false, person: { state: 'TX' } });
    const texan = await providerSession(app, w.tenantId, ['TX']);
    expect(await trpc(texan.token).intake.submissionForReview.query({ id: txSubmission })).toMatchObject({ reviewerLicensed: true });
    const admin = await createUserAndLogin(app, w.tenantId, { email: `admin-${Date.now()}@clinic.test`, role: 'admin' });
    expect(await trpc(admin.token).intake.submissionForReview.query({ id: txSubmission })).toMatchObject({ reviewerLicensed: null, person: { lastName: 'PlantednameTX' } });
  });

  it('each read writes exactly one intake_read entry naming the reader and the request; a refused read writes none', async () => {
    const patient = w.patients.ca;
    const before = (await accessLog(patient)).length;
    await trpc(w.provider.token).intake.submissionForReview.query({ id: caSubmission });
    const after = await accessLog(patient);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({ action: 'intake_read', actor_id: w.provider.id, request_id: expect.stringMatching(/^req_/) });
    // The other patient's record was not touched by this read.
    const dev = await createUserAndLogin(app, w.tenantId, { email: `dev-${Date.now()}@clinic.test`, role: 'developer' });
    const total = await countRows(app, 'patient_access_log');
    expect((await trpcFailure(trpc(dev.token).intake.submissionForReview.query({ id: caSubmission }))).data.httpStatus).toBe(403);
    expect((await trpcFailure(trpc(w.provider.token).intake.submissionForReview.query({ id: 'isub_01jzzzzzzzzzzzzzzzzzzzzzzz' }))).data.httpStatus).toBe(404);
    expect(await countRows(app, 'patient_access_log')).toBe(total);
  });

  it('BMI from the items measured in inches and pounds when no rule names the pair; null when one is unanswered', async () => {
    await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, {
      key: 'measures',
      title: 'Measures',
      items: [
        { linkId: 'tall', text: 'How tall are you?', type: 'integer', required: false, unit: 'in', min: 36, max: 96 },
        { linkId: 'mass', text: 'How much do you weigh?', type: 'decimal', required: false, unit: 'lb', min: 60, max: 800 },
      ],
      rules: [],
    });
    const both = await submit('measures', w.patients.ca, { tall: 66, mass: 220 });
    expect((await trpc(w.provider.token).intake.submissionForReview.query({ id: both })).person?.bmi).toEqual({ value: 35.5, height: { value: 66, unit: 'in' }, weight: { value: 220, unit: 'lb' } });
    const one = await submit('measures', w.patients.ca, { tall: 66 });
    expect((await trpc(w.provider.token).intake.submissionForReview.query({ id: one })).person?.bmi).toBeNull();
  });

  it('a patient without a state: patientState and the licence match are null', async () => {
    const bare = await app.request('POST', '/v1/patients', { key: w.key, body: { firstName: 'Noor', lastName: 'Stateless', dateOfBirth: '1990-02-03', sex: 'male' } });
    expect(bare.status, bare.text).toBe(201);
    const id = await submit('weight', bare.body.id, eligibleAnswers());
    expect(await trpc(w.provider.token).intake.submissionForReview.query({ id })).toMatchObject({ patientState: null, reviewerLicensed: null, person: { state: null, sexAtBirth: 'male', email: null } });
  });

  it('a flow run names its flow and version', async () => {
    const q = await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument('flow-weight'));
    const flow = await publishedFlow(app, { tenantId: w.tenantId, livemode: false }, q, weightFlowDocument('flow-weight'));
    const client = flowClient(app, flow.embedKey);
    const session = await client.started();
    await client.answerAll(session, weightRunAnswers());
    const done = await client.submit(session);
    expect(done.status, done.text).toBe(200);
    const [row] = await query<{ id: string }>(app, sql`select id from intake_submissions where flow_session_id = ${session}`);
    const s = await trpc(w.provider.token).intake.submissionForReview.query({ id: row.id });
    expect(s).toMatchObject({ source: 'flow', flow: { id: flow.flowId, name: 'Weight flow', versionId: flow.versionId, versionNumber: 1 } });
  });
});

describe('intake.reviewQueue: the queue by name', () => {
  it('leads with each patient’s name, age and state, and logs one `list` entry per patient shown', async () => {
    const before = await countRows(app, 'patient_access_log');
    const page = await trpc(w.provider.token).intake.reviewQueue.query({ status: 'pending_review', sandbox: 'true', limit: 100 });
    const byId = new Map(page.map((s) => [s.id, s]));
    expect(byId.get(caSubmission)?.patient).toEqual({ id: w.patients.ca, firstName: 'Quinn', lastName: 'PlantednameCA', dateOfBirth: '1971-07-17', ageAtSubmission: ageToday('1971-07-17'), state: 'CA' });
    expect(byId.get(txSubmission)?.patient).toMatchObject({ lastName: 'PlantednameTX', state: 'TX' });
    const patientsShown = new Set(page.map((s) => s.patientId)).size;
    expect(await countRows(app, 'patient_access_log')).toBe(before + patientsShown);
    const [last] = await query<{ action: string }>(app, sql`select action from patient_access_log order by id desc limit 1`);
    expect(last.action).toBe('list');
  });

  it('the wrong mode flag is a 400 and writes nothing', async () => {
    const before = await countRows(app, 'patient_access_log');
    const failed = await trpcFailure(trpc(w.provider.token).intake.reviewQueue.query({ status: 'all', sandbox: 'false', limit: 10 }));
    expect(failed.data.httpStatus).toBe(400);
    expect(await countRows(app, 'patient_access_log')).toBe(before);
  });
});

describe('orders.actorNames: names, not ids, across the console', () => {
  it('names people, flows, pharmacies and products of the caller’s tenant and mode; unknown and foreign ids are left out', async () => {
    const q = await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument('named'));
    const flow = await publishedFlow(app, { tenantId: w.tenantId, livemode: false }, q, weightFlowDocument('named'));
    const liveFlow = await publishedFlow(app, { tenantId: w.tenantId, livemode: true }, q, weightFlowDocument('named'));
    const ids = [w.provider.id, flow.flowId, liveFlow.flowId, w.pharmacies.alpha, w.products.glp, 'flw_01jzzzzzzzzzzzzzzzzzzzzzzz', caSubmission];
    const names = await trpc(w.provider.token).orders.actorNames.query({ ids });
    const byId = new Map(names.map((n) => [n.id, n]));
    expect(byId.get(flow.flowId)).toMatchObject({ kind: 'flow', name: 'Weight flow' });
    expect(byId.get(w.pharmacies.alpha)).toMatchObject({ kind: 'pharmacy', name: expect.stringContaining('Alpha') });
    expect(byId.get(w.products.glp)).toMatchObject({ kind: 'product' });
    expect(byId.get(w.provider.id)).toMatchObject({ kind: 'user' });
    // The live flow is the other mode; submissions have no name; the unknown flow does not exist.
    expect(names).toHaveLength(4);
  });
});
