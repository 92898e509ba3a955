import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTenantWithKeys, expectEnvelope, readOutbox, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';

/*
 * One-time hosted intake links over HTTP (DESIGN decision 21): POST /intake/hosted-links mails the patient a
 * link; GET /public/intake/hosted/{token} opens it; POST /public/intake/hosted/{token}/submissions spends it.
 * Unknown, expired and used tokens are one 404; nothing health-related goes in the mail.
 */

const PUBLIC_URL = 'https://rail.example.test';
const KEY = 'weight';
const PATIENT = { firstName: 'Zebulon', lastName: 'Quagmire', dateOfBirth: '1979-03-14', sex: 'male', email: 'Zeb.Quagmire@example.org' };


let app: TestApp;
let a: Clinic;
let b: Clinic;
let patientId: string;
let livePatientId: string;
let otherPatientId: string;
let noEmailPatientId: string;

const createLink = (body: unknown, key = a.sandboxKey, idempotencyKey?: string) => app.request('POST', '/v1/intake/hosted-links', { key, body, idempotencyKey });
const open = (token: string) => app.request('GET', `/v1/public/intake/hosted/${token}`);
const send = (token: string, answers: unknown, idempotencyKey?: string) => app.request('POST', `/v1/public/intake/hosted/${token}/submissions`, { body: { answers }, idempotencyKey });
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const tokenOf = (url: string) => url.slice(`${PUBLIC_URL}/i/`.length);

async function patient(key: string, extra: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/v1/patients', { key, body: { ...PATIENT, ...extra } });
  if (res.status !== 201) throw new Error(res.text);
  return res.body.id as string;
}

async function newToken(): Promise<string> {
  const res = await createLink({ patientId, questionnaireKey: KEY });
  if (res.status !== 201) throw new Error(res.text);
  return tokenOf(res.body.url);
}

const written = async () => ({
  links: await countRows(app, 'intake_hosted_links'),
  submissions: await countRows(app, 'intake_submissions'),
  answers: await countRows(app, 'intake_answers'),
  events: await countRows(app, 'events'),
  patients: await countRows(app, 'patients'),
});

beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL });
  a = await createTenantWithKeys(app, 'Northside Clinic');
  b = await createTenantWithKeys(app, 'Other Clinic');
  await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(KEY));
  await approvedQuestionnaire(app, { tenantId: b.tenantId, livemode: false }, weightDocument(KEY));
  patientId = await patient(a.sandboxKey);
  livePatientId = await patient(a.liveKey);
  otherPatientId = await patient(b.sandboxKey);
  noEmailPatientId = await patient(a.sandboxKey, { email: null });
});
afterAll(async () => {
  await app?.close();
});

describe('POST /intake/hosted-links', () => {
  it('creates a 7-day link, stores only its hash, and mails it without health details', async () => {
    const outboxBefore = readOutbox(app).length;
    const res = await createLink({ patientId, questionnaireKey: KEY });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ object: 'intake_hosted_link', livemode: false, patientId, questionnaireKey: KEY });
    expect(res.body.id).toMatch(/^ihl_/);
    const days = (Date.parse(res.body.expiresAt) - Date.parse(res.body.createdAt)) / 86_400_000;
    expect(days).toBeCloseTo(7, 5);
    const token = tokenOf(res.body.url);
    expect(token).toMatch(/^[0-9A-Za-z]{43}$/);

    const rows = (await app.services.database.db.execute(sql`select * from intake_hosted_links where id = ${res.body.id}`)) as unknown as { rows: Record<string, unknown>[] };
    expect(JSON.stringify(rows.rows)).not.toContain(token);

    const mails = readOutbox(app).slice(outboxBefore);
    expect(mails).toHaveLength(1);
    // Stored lower-cased, as every person's address is (issue 49).
    expect(mails[0].to).toBe(PATIENT.email.toLowerCase());
    expect(mails[0].link).toBe(res.body.url);
    expect(mails[0].text).toContain(res.body.url);
    expect(mails[0].subject).toBe('Northside Clinic asks you to complete a questionnaire');
    // Nothing of health: not the questionnaire's title or key, not the patient's name.
    const mail = `${mails[0].subject}\n${mails[0].text}`.toLowerCase();
    for (const word of ['weight', 'zebulon', 'quagmire', 'pregnan', '1979']) expect(mail).not.toContain(word);
  });

  it('a replay answers the first link without its url and sends no second mail', async () => {
    const key = randomUUID();
    const first = await createLink({ patientId, questionnaireKey: KEY }, a.sandboxKey, key);
    const mails = readOutbox(app).length;
    const again = await createLink({ patientId, questionnaireKey: KEY }, a.sandboxKey, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.url).toBeNull();
    expect(readOutbox(app).length).toBe(mails);
  });

  it.each([
    ['an unknown patient', () => ({ patientId: 'pat_01jx0000000000000000000000', questionnaireKey: KEY }), () => a.sandboxKey],
    ["another tenant's patient", () => ({ patientId: otherPatientId, questionnaireKey: KEY }), () => a.sandboxKey],
    ["the other mode's patient", () => ({ patientId: livePatientId, questionnaireKey: KEY }), () => a.sandboxKey],
    ['an unknown questionnaire', () => ({ patientId, questionnaireKey: 'nope' }), () => a.sandboxKey],
    ['a questionnaire approved only in the other mode', () => ({ patientId: livePatientId, questionnaireKey: KEY }), () => a.liveKey],
  ])('%s → 404, nothing written or mailed', async (_name, body, key) => {
    const before = await written();
    const mails = readOutbox(app).length;
    expectEnvelope(await createLink(body(), key()), 404, 'not_found');
    expect(await written()).toEqual(before);
    expect(readOutbox(app).length).toBe(mails);
  });

  it('bad bodies → 400 naming the field, nothing written', async () => {
    const before = await written();
    const missing = await createLink({ questionnaireKey: KEY });
    expectEnvelope(missing, 400, 'validation_error');
    expect(missing.body.error.param).toBe('patientId');
    const extra = await createLink({ patientId, questionnaireKey: KEY, email: 'x@example.org' });
    expectEnvelope(extra, 400, 'validation_error');
    expect(extra.body.error.param).toBe('email');
    expect(await written()).toEqual(before);
  });

  it('a patient without an e-mail address → 409, nothing written', async () => {
    const before = await written();
    expectEnvelope(await createLink({ patientId: noEmailPatientId, questionnaireKey: KEY }), 409, 'conflict', 'patient_email_missing');
    expect(await written()).toEqual(before);
  });

  it('needs a credential', async () => {
    expectEnvelope(await createLink({ patientId, questionnaireKey: KEY }, ''), 401, 'authentication_error');
  });
});

describe('GET /public/intake/hosted/{token}', () => {
  it('answers the patient-safe questionnaire without a credential: no rules, rule ids or their messages', async () => {
    const token = await newToken();
    const res = await open(token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.clinicName).toBe('Northside Clinic');
    expect(res.body.questionnaire.key).toBe(KEY);
    expect(res.body.questionnaire.items.map((i: { linkId: string }) => i.linkId)).toEqual(weightDocument(KEY).items.map((i) => i.linkId));
    expect(res.body.questionnaire.items.find((i: { linkId: string }) => i.linkId === 'meds').enableWhen).toEqual({ q: 'takesMeds', op: 'eq', value: true });
    expect(res.body.questionnaire).not.toHaveProperty('rules');
    expect(res.body.questionnaire).not.toHaveProperty('protocolId');
    for (const rule of weightDocument(KEY).rules) {
      expect(res.text).not.toContain(`"${rule.id}"`);
      expect(res.text).not.toContain(rule.patientMessage);
    }
  });

  it('unknown, malformed and expired tokens are one 404', async () => {
    const token = await newToken();
    await app.services.database.db.execute(sql`update intake_hosted_links set expires_at = now() - interval '1 second' where token_hash = ${hashOf(token)}`);
    for (const t of [token, 'A'.repeat(43), 'short', 'x'.repeat(100)]) {
      const res = await open(t);
      expectEnvelope(res, 404, 'not_found');
      expect(res.body.error.message).toBe('No such intake link');
    }
    expectEnvelope(await send(token, eligibleAnswers()), 404, 'not_found');
  });

  it('is limited per client address', async () => {
    const limited = await startTestApp({ PUBLIC_URL, EMBED_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await limited.request('GET', `/v1/public/intake/hosted/${'B'.repeat(43)}`)).status);
      expect(statuses).toContain(404);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('POST /public/intake/hosted/{token}/submissions', () => {
  it('an eligible run: 201 with patient-safe copy, one hosted submission; the link is then spent for GET and POST', async () => {
    const token = await newToken();
    const before = await written();
    const key = randomUUID();
    const res = await send(token, eligibleAnswers(), key);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ verdict: 'eligible', message: expect.stringContaining('provider will review'), patientMessages: [], reference: expect.stringMatching(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/) });
    const after = await written();
    expect(after.submissions).toBe(before.submissions + 1);
    expect(after.answers).toBe(before.answers + 1);
    expect(after.events).toBe(before.events + 1);
    const rows = (await app.services.database.db.execute(
      sql`select s.source, s.patient_id, l.used_at, l.submission_id = s.id as linked from intake_hosted_links l join intake_submissions s on s.id = l.submission_id where l.token_hash = ${hashOf(token)}`,
    )) as unknown as { rows: Record<string, unknown>[] };
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0]).toMatchObject({ source: 'hosted', patient_id: patientId, linked: true });

    // A replay with the same key answers the first result; anything else finds the link spent.
    const replay = await send(token, eligibleAnswers(), key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(res.body);
    expectEnvelope(await send(token, eligibleAnswers(), randomUUID()), 404, 'not_found');
    expectEnvelope(await send(token, eligibleAnswers()), 404, 'not_found');
    expectEnvelope(await open(token), 404, 'not_found');
    expect((await written()).submissions).toBe(after.submissions);
  });

  it("a disqualified run tells the patient the clinic's messages, never rule ids", async () => {
    const token = await newToken();
    const res = await send(token, eligibleAnswers({ pregnant: true }));
    expect(res.status, res.text).toBe(201);
    expect(res.body.verdict).toBe('disqualified');
    expect(res.body.patientMessages).toEqual(['This treatment is not safe during pregnancy.']);
    expect(res.text).not.toContain('"pregnancy"');
  });

  it('a bad answer → 400 naming the item without its value; nothing written; the link stays usable', async () => {
    const token = await newToken();
    const before = await written();
    const res = await send(token, eligibleAnswers({ height: 'ZQX-987-tall' }));
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('answers.height');
    expect(res.text).not.toContain('ZQX-987');
    expect(await written()).toEqual(before);
    const missing = await send(token, { dob: '1980-04-02' });
    expect(missing.status).toBe(422);
    expect(await written()).toEqual(before);
    expect((await send(token, eligibleAnswers())).status).toBe(201);
  });

  it('a body without answers → 400, the link unspent', async () => {
    const token = await newToken();
    const res = await app.request('POST', `/v1/public/intake/hosted/${token}/submissions`, { body: {} });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('answers');
    expect((await open(token)).status).toBe(200);
  });

  it('two concurrent sends: one 201, one 404, one submission', async () => {
    const token = await newToken();
    const before = await written();
    const results = await Promise.all([send(token, eligibleAnswers()), send(token, eligibleAnswers())]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 404]);
    expect((await written()).submissions).toBe(before.submissions + 1);
  });
});
