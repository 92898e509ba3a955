import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from './helpers/dispatch';
import { flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { type Clinic, countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, readOutbox, startTestApp, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';

/*
 * Issue 49 item 2 over HTTP: a person's e-mail address is stored trimmed and lower-cased and compared ignoring
 * case everywhere a person is matched or signs in (patients through the API, public intake, flows and identity
 * resolution; users through invitations, ops, login and magic links), and migration 0030 brings rows written
 * before that to the same spelling without failing on two users who differ only by case.
 */

const ORIGIN = 'https://www.case.example';
const KEY = 'casefold';
const DOB = '1980-04-02';
const live = { 'x-mode': 'live' };

let app: TestApp;
let clinic: Clinic;
let admin: { token: string };
let intakeEmbed: string;
let flowEmbed: string;

beforeAll(async () => {
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
  clinic = await createTenantWithKeys(app, 'Case clinic');
  const q = await approvedQuestionnaire(app, { tenantId: clinic.tenantId, livemode: true }, weightDocument(KEY));
  flowEmbed = (await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument(KEY), { allowedOrigins: [ORIGIN] })).embedKey;
  const key = await app.request('POST', '/v1/embed-keys', { key: clinic.liveKey, body: { allowedOrigins: [ORIGIN] } });
  if (key.status !== 201) throw new Error(key.text);
  intakeEmbed = key.body.id;
  admin = await createUserAndLogin(app, clinic.tenantId, { email: `admin-${randomUUID()}@case.test`, role: 'admin' });
});
afterAll(async () => app?.close());

const createPatient = (email: string, lastName = 'Victim') =>
  app.request('POST', '/v1/patients', { key: clinic.liveKey, body: { firstName: 'Vic', lastName, dateOfBirth: DOB, sex: 'female', email } });
const patientOf = async (id: string) => (await app.request('GET', `/v1/patients/${id}`, { key: clinic.liveKey })).body;
const submissionOf = async (id: string) => (await app.request('GET', `/v1/intake/submissions/${id}`, { key: clinic.liveKey })).body;
const publicSubmit = (patient: Record<string, unknown>) =>
  app.request('POST', `/v1/public/intake/${intakeEmbed}/submissions`, {
    headers: { origin: ORIGIN },
    idempotencyKey: randomUUID(),
    body: { questionnaireKey: KEY, patient: { state: 'CA', ...patient }, answers: eligibleAnswers() },
  });
/** Every live patient of the clinic whose address is `email` in any spelling. */
const spellings = async (email: string) =>
  (await query<{ id: string; email: string }>(app, sql`select id, email from patients where tenant_id = ${clinic.tenantId} and lower(email) = ${email}`)).map((r) => r.email);
const factsEmailOf = async (submissionId: string) =>
  (await query<{ email: string | null }>(app, sql`select facts->>'email' as email from intake_answers where submission_id = ${submissionId}`))[0]?.email;

describe('patients', () => {
  it('POST /patients stores Victim@Example.com lower-cased and reads it back so; PATCH does the same', async () => {
    const tag = randomUUID().slice(0, 8);
    const made = await createPatient(`Victim.${tag}@Example.COM`);
    expect(made.status, made.text).toBe(201);
    expect(made.body.email).toBe(`victim.${tag}@example.com`);
    expect((await patientOf(made.body.id)).email).toBe(`victim.${tag}@example.com`);

    const patched = await app.request('PATCH', `/v1/patients/${made.body.id}`, { key: clinic.liveKey, body: { email: `NEW.${tag}@Example.Org` } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.email).toBe(`new.${tag}@example.org`);
    expect((await patientOf(made.body.id)).email).toBe(`new.${tag}@example.org`);
    // null still clears it.
    expect((await app.request('PATCH', `/v1/patients/${made.body.id}`, { key: clinic.liveKey, body: { email: null } })).body.email).toBeNull();
  });

  it('a public submission sent as VICTIM@EXAMPLE.COM is the patient on file as victim@example.com: matched, not a second record', async () => {
    const email = `victim-${randomUUID().slice(0, 8)}@example.com`;
    const made = await createPatient(email);
    const before = await countRows(app, 'patients');
    const res = await publicSubmit({ name: 'Vic Victim', email: email.toUpperCase() });
    expect(res.status, res.text).toBe(201);
    const s = await submissionOf(res.body.submissionId);
    expect(s.patientId).toBe(made.body.id);
    expect(s.identity).toBeNull();
    expect(await countRows(app, 'patients')).toBe(before);
    expect(await factsEmailOf(s.id)).toBe(email);
    expect(await spellings(email)).toEqual([email]);
  });

  it('a flow whose contact step says VICTIM@EXAMPLE.COM matches the patient on file too, and holds the address lower-cased', async () => {
    const email = `flow-${randomUUID().slice(0, 8)}@example.com`;
    const made = await createPatient(email, 'Lovelace');
    const before = await countRows(app, 'patients');
    const c = flowClient(app, flowEmbed, ORIGIN);
    const id = await c.started();
    const contact = { name: 'Ada Lovelace', email: email.toUpperCase(), state: 'CA', dateOfBirth: DOB };
    await c.answerAll(id, weightRunAnswers({ contact }));
    const [held] = await query<{ steps: Record<string, Record<string, unknown>> }>(app, sql`select steps from flow_session_answers where session_id = ${id}`);
    expect(held.steps.contact.email).toBe(email);
    // The submit body may spell it either way: it is the same address.
    const res = await c.submit(id, { name: 'Ada Lovelace', email: email.replace(/^f/, 'F') });
    expect(res.status, res.text).toBe(200);
    expect(res.body.verdict).toBe('eligible');
    const s = await submissionOf(res.body.submissionId);
    expect(s.patientId).toBe(made.body.id);
    expect(await countRows(app, 'patients')).toBe(before);
    expect(await factsEmailOf(s.id)).toBe(email);
  });

  it('resolving a mismatch as new stores the new patient as victim@example.com, never beside it as VICTIM@…', async () => {
    const email = `victim-${randomUUID().slice(0, 8)}@example.com`;
    const made = await createPatient(email);
    // Same address in capitals, another last name: matched, flagged, the record untouched.
    const res = await publicSubmit({ name: 'Vic Impostor', email: email.toUpperCase() });
    expect(res.status, res.text).toBe(201);
    const s = await submissionOf(res.body.submissionId);
    expect(s).toMatchObject({ patientId: made.body.id, identity: { status: 'mismatch', fields: ['lastName'] } });
    expect(await factsEmailOf(s.id)).toBe(email);

    const resolved = await app.request('POST', `/v1/intake/submissions/${s.id}/resolve-identity`, { key: admin.token, headers: live, body: { patient: 'new' } });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.patientId).not.toBe(made.body.id);
    expect(await patientOf(resolved.body.patientId)).toMatchObject({ lastName: 'Impostor', email });
    expect(await patientOf(made.body.id)).toMatchObject({ lastName: 'Victim', email });
    // Two people now share the address (the provider said so), in one spelling.
    expect(await spellings(email)).toEqual([email, email]);
  });
});

describe('users', () => {
  const password = 'correct horse battery staple';
  const login = (email: string, pw = password) => app.request('POST', '/v1/auth/login', { body: { email, password: pw } });

  it('ops creates Owner.Case@…: stored lower-cased; login in any case and with surrounding spaces is that one user; a case variant is taken', async () => {
    const made = await app.request('POST', `/v1/ops/tenants/${clinic.tenantId}/users`, { key: OPS_KEY, body: { email: 'Owner.Case@Case.TEST', role: 'owner', password } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.email).toBe('owner.case@case.test');
    for (const spelled of ['owner.case@case.test', 'OWNER.CASE@CASE.TEST', '  Owner.Case@case.test ']) {
      const res = await login(spelled);
      expect(res.status, `${spelled}: ${res.text}`).toBe(200);
      const me = await app.request('GET', '/v1/auth/me', { key: res.body.accessToken });
      expect(me.body.user).toMatchObject({ id: made.body.id, email: 'owner.case@case.test' });
    }
    const before = await countRows(app, 'users');
    expectEnvelope(await app.request('POST', `/v1/ops/tenants/${clinic.tenantId}/users`, { key: OPS_KEY, body: { email: 'OWNER.CASE@case.test', role: 'admin', password } }), 409, 'conflict', 'email_taken');
    expect(await countRows(app, 'users')).toBe(before);
  });

  it('an invitation to Dev.Case@… is one user: re-inviting another spelling is 409, the magic link and login find it in any case', async () => {
    const invited = await app.request('POST', '/v1/users', { key: admin.token, body: { email: 'Dev.Case@Case.Test', role: 'developer', name: 'Dev' } });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.email).toBe('dev.case@case.test');
    const before = await countRows(app, 'users');
    expectEnvelope(await app.request('POST', '/v1/users', { key: admin.token, body: { email: 'DEV.CASE@CASE.TEST', role: 'developer' } }), 409, 'conflict', 'email_taken');
    expect(await countRows(app, 'users')).toBe(before);

    const mail = readOutbox(app).find((m) => m.to === 'dev.case@case.test')!;
    const token = new URL(mail.link!).searchParams.get('token')!;
    expect((await app.request('POST', '/v1/auth/accept-invite', { body: { token, password } })).status).toBe(200);
    expect((await login('DEV.case@CASE.test')).status).toBe(200);

    const sent = readOutbox(app).length;
    expect((await app.request('POST', '/v1/auth/magic-link', { body: { email: 'DEV.CASE@CASE.TEST' } })).status).toBe(200);
    const links = readOutbox(app).slice(sent);
    expect(links.map((m) => m.to)).toEqual(['dev.case@case.test']);
    const session = await app.request('POST', '/v1/auth/magic-link/verify', { body: { token: new URL(links[0].link!).searchParams.get('token')! } });
    expect(session.status, session.text).toBe(200);
    expect((await app.request('GET', '/v1/auth/me', { key: session.body.accessToken })).body.user.id).toBe(invited.body.id);
    const rows = await query<{ email: string }>(app, sql`select email from users where lower(email) = 'dev.case@case.test'`);
    expect(rows).toEqual([{ email: 'dev.case@case.test' }]);
  });
});

describe('migration 0030 (person e-mail lower-case)', () => {
  const file = fs.readdirSync(path.resolve('db/migrations')).find((f) => f.endsWith('_person_email_lowercase.sql'))!;
  const statements = fs
    .readFileSync(path.resolve('db/migrations', file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);
  const migrate = async () => {
    for (const statement of statements) await app.services.database.db.execute(sql.raw(statement));
  };
  const emailsOf = async (table: 'users' | 'patients', ids: string[]) =>
    Object.fromEntries((await query<{ id: string; email: string }>(app, sql`select id, email from ${sql.identifier(table)} where id in ${ids}`)).map((r) => [r.id, r.email]));

  it('is in the journal, after every other migration', () => {
    const journal = JSON.parse(fs.readFileSync(path.resolve('db/migrations/meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
    expect(journal.entries.map((e) => `${e.tag}.sql`)).toContain(file);
  });

  it('lower-cases patients, users and submissions written before it; leaves two users who differ only by case as they were; runs again as a no-op', async () => {
    const tag = randomUUID().slice(0, 8);
    const password = 'correct horse battery staple';
    // Rows as an older version (or a hand-written import) left them: mixed case, written past the API.
    const patient = await createPatient(`old.${tag}@example.com`);
    const submitted = await publicSubmit({ name: 'Old Victim', email: `old.${tag}@example.com` });
    expect(submitted.status, submitted.text).toBe(201);
    const users: Record<string, string> = {};
    for (const name of ['mixed', 'pair-low', 'pair-up', 'dup-a', 'dup-b']) {
      users[name] = (await createUserAndLogin(app, clinic.tenantId, { email: `${name}.${tag}@case.test`, role: 'developer' }, password)).id;
    }
    const set = (table: 'users' | 'patients', id: string, email: string) => app.services.database.db.execute(sql`update ${sql.identifier(table)} set email = ${email} where id = ${id}`);
    await set('patients', patient.body.id, ` Old.${tag}@Example.COM `);
    await app.services.database.db.execute(
      sql`update intake_answers set facts = jsonb_set(facts, '{email}', to_jsonb(${`OLD.${tag}@EXAMPLE.COM`}::text)) where submission_id = ${submitted.body.submissionId}`,
    );
    await set('users', users.mixed, `Mixed.${tag}@Case.Test`);
    // A pair where one spelling is already the lower-case one, and a pair where neither is.
    await set('users', users['pair-low'], `pair.${tag}@case.test`);
    await set('users', users['pair-up'], `PAIR.${tag}@case.test`);
    await set('users', users['dup-a'], `Dup.${tag}@case.test`);
    await set('users', users['dup-b'], `dUP.${tag}@case.test`);
    // Before the migration the mixed-case user cannot sign in: sign-in looks the lower-cased address up.
    expectEnvelope(await app.request('POST', '/v1/auth/login', { body: { email: `mixed.${tag}@case.test`, password } }), 401, 'authentication_error');

    await migrate();

    expect((await patientOf(patient.body.id)).email).toBe(`old.${tag}@example.com`);
    expect(await factsEmailOf(submitted.body.submissionId)).toBe(`old.${tag}@example.com`);
    const after = await emailsOf('users', Object.values(users));
    expect(after).toEqual({
      [users.mixed]: `mixed.${tag}@case.test`,
      // Differ only by case: untouched, so no account takes over another's address.
      [users['pair-low']]: `pair.${tag}@case.test`,
      [users['pair-up']]: `PAIR.${tag}@case.test`,
      [users['dup-a']]: `Dup.${tag}@case.test`,
      [users['dup-b']]: `dUP.${tag}@case.test`,
    });
    const signedIn = await app.request('POST', '/v1/auth/login', { body: { email: `MIXED.${tag}@case.test`, password } });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await app.request('GET', '/v1/auth/me', { key: signedIn.body.accessToken })).body.user.id).toBe(users.mixed);
    // The lower-case one of a pair signs in as before; neither of the other pair can, and nobody can take the address.
    expect((await app.request('POST', '/v1/auth/login', { body: { email: `pair.${tag}@case.test`, password } })).status).toBe(200);
    expectEnvelope(await app.request('POST', '/v1/auth/login', { body: { email: `dup.${tag}@case.test`, password } }), 401, 'authentication_error');
    expectEnvelope(await app.request('POST', '/v1/users', { key: admin.token, body: { email: `dup.${tag}@case.test`, role: 'developer' } }), 409, 'conflict', 'email_taken');
    // A public submission in capitals now finds the migrated patient as it did before (matching always ignored case).
    const again = await publicSubmit({ name: 'Old Victim', email: `OLD.${tag}@example.com` });
    expect(again.status, again.text).toBe(201);
    expect((await submissionOf(again.body.submissionId)).patientId).toBe(patient.body.id);

    await migrate();
    expect(await emailsOf('users', Object.values(users))).toEqual(after);
  });
});
