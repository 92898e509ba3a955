import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { providerSession } from './helpers/orders-world';

/*
 * Public intake over HTTP (DESIGN decisions 17 and 21): an embed key in the path instead of a credential;
 * the patient-safe questionnaire; submissions with a required Idempotency-Key, the patient matched by e-mail
 * or created (synthetic in sandbox). Bad input writes nothing and echoes nothing.
 */

const ORIGIN = 'https://www.northside.example';
const KEY = 'weight';
const PERSON = { name: 'Zebulon Ichabod Quagmire', email: 'Zeb.Quagmire@Example.org', state: 'CA' };


let app: TestApp;
let a: Clinic;
let b: Clinic;
let sandboxEmbed: string;
let liveEmbed: string;
let listedEmbed: string;
let otherEmbed: string;

async function embedKey(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await app.request('POST', '/v1/embed-keys', { key, body });
  if (res.status !== 201) throw new Error(`embed key: ${res.status} ${res.text}`);
  return res.body.id as string;
}

const getQ = (embed: string, key: string, headers: Record<string, string> = { origin: ORIGIN }) =>
  app.request('GET', `/v1/public/intake/${embed}/questionnaires/${key}`, { headers });
const submit = (embed: string, body: unknown, idempotencyKey: string | null = randomUUID(), headers: Record<string, string> = { origin: ORIGIN }) =>
  app.request('POST', `/v1/public/intake/${embed}/submissions`, { body, idempotencyKey: idempotencyKey ?? undefined, headers });
const body = (extra: Record<string, unknown> = {}) => ({ questionnaireKey: KEY, patient: PERSON, answers: eligibleAnswers(), ...extra });

const written = async () => ({
  submissions: await countRows(app, 'intake_submissions'),
  answers: await countRows(app, 'intake_answers'),
  events: await countRows(app, 'events'),
  patients: await countRows(app, 'patients'),
});

async function rows(query: ReturnType<typeof sql>) {
  return ((await app.services.database.db.execute(query)) as unknown as { rows: Record<string, any>[] }).rows;
}

beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://rail.example.test' });
  a = await createTenantWithKeys(app, 'Northside Clinic');
  b = await createTenantWithKeys(app, 'Other Clinic');
  for (const livemode of [false, true]) {
    await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode }, weightDocument(KEY));
    await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode }, weightDocument('hair'));
  }
  await approvedQuestionnaire(app, { tenantId: b.tenantId, livemode: false }, weightDocument('b-only'));
  sandboxEmbed = await embedKey(a.sandboxKey, { allowedOrigins: [ORIGIN] });
  liveEmbed = await embedKey(a.liveKey, { allowedOrigins: [ORIGIN] });
  listedEmbed = await embedKey(a.sandboxKey, { allowedOrigins: [ORIGIN], questionnaireKeys: ['hair'] });
  otherEmbed = await embedKey(b.sandboxKey, { allowedOrigins: [ORIGIN] });
});
afterAll(async () => {
  await app?.close();
});

describe('GET /public/intake/{embedKey}/questionnaires/{key}', () => {
  it('answers the patient-safe view: no rules, rule ids or their messages', async () => {
    const res = await getQ(liveEmbed, KEY);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ key: KEY, version: 1, questionnaire: { key: KEY, title: 'Weight management' } });
    expect(res.body.questionnaire).not.toHaveProperty('rules');
    for (const rule of weightDocument(KEY).rules) {
      expect(res.text).not.toContain(`"${rule.id}"`);
      expect(res.text).not.toContain(rule.patientMessage);
    }
  });

  it("a key outside the embed key's list, an unknown one, and another clinic's → 404", async () => {
    expect((await getQ(listedEmbed, 'hair')).status).toBe(200);
    expectEnvelope(await getQ(listedEmbed, KEY), 404, 'not_found');
    expectEnvelope(await getQ(sandboxEmbed, 'nope'), 404, 'not_found');
    // B's key cannot reach A's questionnaires, nor A's key B's.
    expectEnvelope(await getQ(otherEmbed, KEY), 404, 'not_found');
    expectEnvelope(await getQ(sandboxEmbed, 'b-only'), 404, 'not_found');
    expectEnvelope(await getQ('emb_unknownunknownunknown0', KEY), 404, 'not_found');
  });
});

describe('POST /public/intake/{embedKey}/submissions', () => {
  it('without Idempotency-Key → 400, nothing written', async () => {
    const before = await written();
    const res = await submit(liveEmbed, body(), null);
    expect(res.body.error.param).toBe('Idempotency-Key');
    expectEnvelope(res, 400, 'validation_error');
    expect(await written()).toEqual(before);
  });

  it('live: creates the patient, records source and embed key, answers patient-safe copy and a certificate; a replay is the same answer', async () => {
    const before = await written();
    const key = randomUUID();
    const res = await submit(liveEmbed, body(), key);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ verdict: 'eligible', patientMessages: [], sandbox: false });
    expect(res.body.message).toContain('provider will review');
    expect(res.body.submissionId).toMatch(/^isub_/);
    expect(res.body.certificate.split('.')).toHaveLength(3);
    for (const pii of ['Zebulon', 'Quagmire', 'example.org', '1980-04-02']) expect(res.text).not.toContain(pii);

    const replay = await submit(liveEmbed, body(), key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(res.body);
    const after = await written();
    expect(after).toEqual({ submissions: before.submissions + 1, answers: before.answers + 1, events: before.events + 1, patients: before.patients + 1 });

    const [row] = await rows(sql`select s.source, s.embed_key_id, s.livemode, p.first_name, p.last_name, p.email, p.date_of_birth, p.sex, p.synthetic from intake_submissions s join patients p on p.id = s.patient_id where s.id = ${res.body.submissionId}`);
    expect(row).toMatchObject({ source: 'public', embed_key_id: liveEmbed, livemode: true, first_name: 'Zebulon Ichabod', last_name: 'Quagmire', email: PERSON.email.toLowerCase(), sex: 'unknown', synthetic: false });
    // No dateOfBirth sent: the questionnaire's own date-of-birth answer (the item age() reads) is used.
    expect(row.date_of_birth).toBe('1980-04-02');

    // The event carries the id and verdict only; nothing about the person or the answers anywhere in the log.
    const events = await rows(sql`select type, data from events where data->>'submissionId' = ${res.body.submissionId}`);
    expect(events).toEqual([{ type: 'intake.submission.created', data: { submissionId: res.body.submissionId, verdict: 'eligible' } }]);
    const all = JSON.stringify(await rows(sql`select data from events`));
    for (const pii of ['Zebulon', 'Quagmire', 'example.org', '1980-04-02']) expect(all).not.toContain(pii);
  });

  it('a returning patient is matched by e-mail, ignoring case: no second patient', async () => {
    const first = await submit(liveEmbed, body({ patient: { ...PERSON, email: 'returning@example.org' } }));
    expect(first.status, first.text).toBe(201);
    const patients = await countRows(app, 'patients');
    const second = await submit(liveEmbed, body({ patient: { ...PERSON, name: 'Someone Else', email: 'RETURNING@Example.ORG' } }));
    expect(second.status, second.text).toBe(201);
    expect(await countRows(app, 'patients')).toBe(patients);
    const ids = await rows(sql`select distinct patient_id from intake_submissions where id in (${first.body.submissionId}, ${second.body.submissionId})`);
    expect(ids).toHaveLength(1);
  });

  it('sandbox: a synthetic patient in the declared state; nothing sent about the person is kept', async () => {
    const res = await submit(sandboxEmbed, body({ patient: { ...PERSON, state: 'TX', dateOfBirth: '1980-04-02' } }), randomUUID(), {});
    expect(res.status, res.text).toBe(201);
    expect(res.body.sandbox).toBe(true);
    const [row] = await rows(sql`select p.synthetic, p.first_name, p.email, p.address, p.livemode from intake_submissions s join patients p on p.id = s.patient_id where s.id = ${res.body.submissionId}`);
    expect(row).toMatchObject({ synthetic: true, livemode: false });
    expect(row.first_name).not.toBe('Zebulon');
    expect(row.email).not.toBe(PERSON.email);
    expect(row.address.state).toBe('TX');
  });

  it("a disqualified run tells the patient the clinic's messages, never rule ids", async () => {
    const res = await submit(liveEmbed, body({ answers: eligibleAnswers({ pregnant: true }) }));
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ verdict: 'disqualified', patientMessages: ['This treatment is not safe during pregnancy.'], certificate: null });
    expect(res.text).not.toContain('"pregnancy"');
  });

  it.each([
    ['a bad answer', { answers: eligibleAnswers({ height: 'ZQX-987-tall' }) }, 'answers.height', 400],
    ['an unknown item', { answers: eligibleAnswers({ ZQX987: 'x' }) }, 'answers.ZQX987', 400],
    ['a bad e-mail', { patient: { ...PERSON, email: 'ZQX-987-not-an-email' } }, 'patient.email', 400],
    ['a bad state', { patient: { ...PERSON, state: 'ZQ' } }, 'patient.state', 400],
    ['an impossible date of birth', { patient: { ...PERSON, dateOfBirth: '1980-02-30' } }, 'patient.dateOfBirth', 400],
    ['no name', { patient: { email: PERSON.email, state: 'CA' } }, 'patient.name', 400],
    ['an unknown field', { extra: 'ZQX-987' }, 'extra', 400],
    ['unanswered required questions', { answers: { dob: '1980-04-02' } }, 'answers.height', 422],
  ])('%s → %s naming it, the value never echoed, nothing written', async (_name, extra, param, status) => {
    const before = await written();
    const res = await submit(liveEmbed, body(extra));
    expectEnvelope(res, status as number, 'validation_error');
    expect(res.body.error.param).toBe(param);
    expect(res.text).not.toContain('ZQX-987');
    expect(res.text).not.toContain('Zebulon');
    expect(await written()).toEqual(before);
  });

  it('a questionnaire outside the embed key\'s list, or another clinic\'s → 404, nothing written', async () => {
    const before = await written();
    expectEnvelope(await submit(listedEmbed, body(), randomUUID(), {}), 404, 'not_found');
    expectEnvelope(await submit(otherEmbed, body(), randomUUID(), {}), 404, 'not_found');
    expectEnvelope(await submit(sandboxEmbed, body({ questionnaireKey: 'b-only' }), randomUUID(), {}), 404, 'not_found');
    expect(await written()).toEqual(before);
  });

  it('without a date of birth where the questionnaire asks none → 400 patient.dateOfBirth', async () => {
    const doc = weightDocument('no-age');
    doc.rules = doc.rules.filter((r) => r.id !== 'minor');
    await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: true }, doc);
    const before = await written();
    const res = await submit(liveEmbed, body({ questionnaireKey: 'no-age', patient: { ...PERSON, email: 'new-no-age@example.org' } }));
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('patient.dateOfBirth');
    expect(await written()).toEqual(before);
  });
});

describe('review of a live public submission', () => {
  it('needs no address: the state given with the submission is kept on the patient, and the provider licensed there decides (issue 33, item 8)', async () => {
    const person = { name: 'Ottoline Vexley', email: `ottoline-${randomUUID()}@example.org`, state: 'CA', dateOfBirth: '1980-04-02' };
    const sent = await submit(liveEmbed, body({ patient: person }));
    expect(sent.status, sent.text).toBe(201);
    const [{ patient_id: patientId }] = await rows(sql`select patient_id from intake_submissions where id = ${sent.body.submissionId}`);
    const patient = await app.request('GET', `/v1/patients/${patientId}`, { key: a.liveKey });
    expect(patient.body).toMatchObject({ address: null, state: 'CA' });

    const elsewhere = await providerSession(app, a.tenantId, ['TX']);
    const refused = await app.request('POST', `/v1/intake/submissions/${sent.body.submissionId}/review`, { key: elsewhere.token, headers: { 'x-mode': 'live' }, body: { decision: 'reject', note: 'x' } });
    expectEnvelope(refused, 403, 'permission_error', 'provider_not_licensed');

    const provider = await providerSession(app, a.tenantId, ['CA']);
    const decided = await app.request('POST', `/v1/intake/submissions/${sent.body.submissionId}/review`, { key: provider.token, headers: { 'x-mode': 'live' }, body: { decision: 'reject', note: 'Needs a video visit first' } });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body).toMatchObject({ status: 'rejected' });
  });
});
