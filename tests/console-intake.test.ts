import { sql } from 'drizzle-orm';
import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { countRows, createTenantWithKeys, createUserAndLogin, startTestApp, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, publishAndApprove, weightDocument } from './helpers/intake-world';
import { ordersWorld } from './helpers/orders-world';
import { query } from './helpers/dispatch';
import { trpcFailure } from './helpers/trpc';

/*
 * Issue 22, item 9: the console's own intake reads over /api/trpc. `intake.questionnaireVersions` lists
 * every version in any state (the library, its diff, the approval page); `intake.submissionForReview` is the
 * review page's record without answers but with the person (issue 33: one logged read per view).
 * Both are the session's tenant and mode only.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;
let app: TestApp;
let w: World;
let submissionId: string;
let otherSubmission: string;

const trpc = (token: string, mode?: 'live') =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}`, ...(mode ? { 'x-mode': mode } : {}) } })] });

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000' });
  w = await ordersWorld(app, 'Console intake');
  // v1 approved, then v2 approved (v1 retired), then v3 pending: three states of one key.
  await publishAndApprove(app, w.key, w.provider.token, weightDocument('weight'));
  await publishAndApprove(app, w.key, w.provider.token, { ...weightDocument('weight'), title: 'Weight v2' });
  const pending = await app.request('POST', '/v1/intake/questionnaires', { key: w.key, body: { ...weightDocument('weight'), title: 'Weight v3' } });
  expect(pending.status, pending.text).toBe(201);
  await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument('refill'));
  await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: true }, weightDocument('live-only'));
  const sub = await app.request('POST', '/v1/intake/submissions', { key: w.key, body: { questionnaireKey: 'weight', patientId: w.patients.ca, answers: eligibleAnswers() } });
  expect(sub.status, sub.text).toBe(201);
  submissionId = sub.body.id;
  const other = await createTenantWithKeys(app, 'Other clinic');
  await approvedQuestionnaire(app, { tenantId: other.tenantId, livemode: false }, weightDocument('weight'));
  const otherPatient = await app.request('POST', '/v1/patients', { key: other.sandboxKey, body: { firstName: 'Ada', lastName: 'Other', dateOfBirth: '1980-01-01', sex: 'female', address: { line1: '1 Main St', city: 'Town', state: 'CA', postalCode: '90001' } } });
  const otherSub = await app.request('POST', '/v1/intake/submissions', { key: other.sandboxKey, body: { questionnaireKey: 'weight', patientId: otherPatient.body.id, answers: eligibleAnswers() } });
  expect(otherSub.status, otherSub.text).toBe(201);
  otherSubmission = otherSub.body.id;
});
afterAll(async () => {
  await app?.close();
});

describe('intake.questionnaireVersions', () => {
  it('lists every version of every key in the session’s tenant and mode, any state, newest first', async () => {
    const all = await trpc(w.provider.token).intake.questionnaireVersions.query({});
    expect(all.map((v) => `${v.key}@${v.version}:${v.status}`)).toEqual(['refill@1:approved', 'weight@3:pending', 'weight@2:approved', 'weight@1:retired']);
    const weight = await trpc(w.provider.token).intake.questionnaireVersions.query({ key: 'weight' });
    expect(weight.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(weight[1]).toMatchObject({ title: 'Weight v2', approvedBy: w.provider.id, approvedAt: expect.any(String) });
    expect(await trpc(w.provider.token, 'live').intake.questionnaireVersions.query({})).toEqual([expect.objectContaining({ key: 'live-only' })]);
  });

  it('an admin (catalog.manage) reads it; a developer cannot; a bad key is a 400', async () => {
    const admin = await createUserAndLogin(app, w.tenantId, { email: `admin-${Date.now()}@clinic.test`, role: 'admin' });
    expect(await trpc(admin.token).intake.questionnaireVersions.query({ key: 'weight' })).toHaveLength(3);
    const dev = await createUserAndLogin(app, w.tenantId, { email: `dev-${Date.now()}@clinic.test`, role: 'developer' });
    expect((await trpcFailure(trpc(dev.token).intake.questionnaireVersions.query({}))).data.httpStatus).toBe(403);
    expect((await trpcFailure(trpc(w.provider.token).intake.questionnaireVersions.query({ key: 'Not A Key' }))).data.httpStatus).toBe(400);
  });

  it('an API key cannot call it (console procedures are for sessions)', async () => {
    const failed = await trpcFailure(trpc(w.key).intake.questionnaireVersions.query({}));
    expect([401, 403]).toContain(failed.data.httpStatus);
  });
});

describe('intake.submissionForReview', () => {
  it('returns the record without answers, with the patient’s state and the person (one logged read)', async () => {
    const before = await countRows(app, 'patient_access_log');
    const s = await trpc(w.provider.token).intake.submissionForReview.query({ id: submissionId });
    expect(s).toMatchObject({ id: submissionId, status: 'pending_review', verdict: 'eligible', patientId: w.patients.ca, patientState: 'CA', person: { state: 'CA' } });
    expect(s).not.toHaveProperty('answers');
    expect(s).not.toHaveProperty('reviewNote');
    // Showing the person is a PHI read (DESIGN decision 33): one entry, as the single read below writes.
    expect(await countRows(app, 'patient_access_log')).toBe(before + 1);
    const detail = await trpc(w.provider.token).intake.getSubmission.query({ id: submissionId });
    expect(detail.answers).toMatchObject({ height: 170 });
    const [logged] = await query<{ n: number }>(app, sql`select count(*)::int as n from patient_access_log where patient_id = ${w.patients.ca} and action = 'intake_read'`);
    expect(logged.n).toBe(2);
  });

  it('another tenant’s submission and the other mode are 404; a developer is refused', async () => {
    expect((await trpcFailure(trpc(w.provider.token).intake.submissionForReview.query({ id: otherSubmission }))).data.httpStatus).toBe(404);
    expect((await trpcFailure(trpc(w.provider.token, 'live').intake.submissionForReview.query({ id: submissionId }))).data.httpStatus).toBe(404);
    const dev = await createUserAndLogin(app, w.tenantId, { email: `dev2-${Date.now()}@clinic.test`, role: 'developer' });
    expect((await trpcFailure(trpc(dev.token).intake.submissionForReview.query({ id: submissionId }))).data.httpStatus).toBe(403);
  });
});
