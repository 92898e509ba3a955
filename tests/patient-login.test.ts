import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '@/server/lib/clock';
import { countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';
import {
  anyAddress,
  asPatient,
  loginMailCount,
  loginMailsDone,
  mailedCode,
  nextLoginMail,
  PORTAL_ORIGIN,
  portalKey,
  portalPatient,
  requestLogin,
  signedIn,
  verifyCode,
  verifyLink,
} from './helpers/portal-world';

/*
 * The patient portal's sign-in (DESIGN decision 39) over HTTP: one answer whether or not a chart exists, a code
 * and a one-click link mailed (through the worker) to a single matching patient only, single use, five tries, ten
 * minutes; sessions of 30 minutes idle and 12 hours at most, bound to one patient, ended by logout; the patient
 * API and the clinic's API never accept each other's credentials.
 */

let app: TestApp;
let a: Clinic;
let b: Clinic;
let liveKey: string;
let sandboxKey: string;
let otherClinicKey: string;

const later = (ms: number) => {
  const at = Date.now() + ms;
  setClock(() => new Date(at));
};

beforeAll(async () => {
  app = await startTestApp({ RUN_WORKER: 'true', TRUST_PROXY: 'loopback', PUBLIC_URL: 'https://rail.example.test' });
  a = await createTenantWithKeys(app, 'Harbor Health');
  b = await createTenantWithKeys(app, 'Other Clinic');
  liveKey = await portalKey(app, a.liveKey);
  sandboxKey = await portalKey(app, a.sandboxKey, []);
  otherClinicKey = await portalKey(app, b.liveKey);
});
afterAll(async () => app?.close());
afterEach(() => setClock(null));

describe('the portal of a key', () => {
  const portal = (key: string, headers: Record<string, string> = { origin: PORTAL_ORIGIN }) => app.request('GET', `/v1/public/patients/${key}/portal`, { headers });

  it("names the clinic, its mode and the theme of the key's published flow; a key without a flow works too", async () => {
    expect((await portal(liveKey)).body).toEqual({ clinicName: 'Harbor Health', livemode: true, theme: { cssVariables: {} } });
    const q = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument('weight'));
    const themed = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument('weight'));
    const res = await portal(themed.embedKey);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ clinicName: 'Harbor Health', livemode: false, theme: { cssVariables: { '--nl-flow-primary': '#0f766e', '--nl-flow-radius': '12px' } } });
  });

  it('is 404 for an unknown, malformed or revoked key, and 403 for a live key from a foreign origin', async () => {
    const revoked = await portalKey(app, a.liveKey);
    expect((await app.request('DELETE', `/v1/embed-keys/${revoked}`, { key: a.liveKey })).status).toBe(200);
    for (const key of ['emb_000000000000000000000000', 'not-a-key', revoked]) expectEnvelope(await portal(key), 404, 'not_found');
    expectEnvelope(await portal(liveKey, { origin: 'https://evil.example' }), 403, 'permission_error', 'origin_not_allowed');
  });
});

describe('asking for a code', () => {
  it('answers 202 {sent: true} alike for a match and every kind of non-match, and mails only the one match', async () => {
    const patient = await portalPatient(app, a.liveKey, { email: 'Ada.Match@Patients.example' });
    const sandboxTwin = await portalPatient(app, a.sandboxKey, { email: 'sandbox.twin@patients.example' });
    const otherClinics = await portalPatient(app, b.liveKey, { email: 'other.clinic@patients.example' });
    const attempts = [
      { key: liveKey, body: { email: 'ADA.MATCH@patients.example', dateOfBirth: patient.dateOfBirth } },
      { key: liveKey, body: { email: 'nobody@patients.example', dateOfBirth: patient.dateOfBirth } },
      { key: liveKey, body: { email: patient.email, dateOfBirth: '1980-03-01' } },
      { key: liveKey, body: { email: sandboxTwin.email, dateOfBirth: sandboxTwin.dateOfBirth } },
      { key: liveKey, body: { email: otherClinics.email, dateOfBirth: otherClinics.dateOfBirth } },
      { key: sandboxKey, body: { email: patient.email, dateOfBirth: patient.dateOfBirth } },
      { key: otherClinicKey, body: { email: patient.email, dateOfBirth: patient.dateOfBirth } },
      { key: 'emb_000000000000000000000000', body: { email: patient.email, dateOfBirth: patient.dateOfBirth } },
    ];
    const answers = [];
    for (const { key, body } of attempts) answers.push(await requestLogin(app, key, body));
    for (const res of answers) {
      expect(res.status).toBe(202);
      expect(res.text).toBe('{"sent":true}');
      // The same headers too, but for the per-response ones.
      expect([...res.headers.keys()].filter((h) => !['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset'].includes(h)).sort()).toEqual(
        [...answers[0].headers.keys()].filter((h) => !['date', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset'].includes(h)).sort(),
      );
    }
    const mail = await nextLoginMail(app, patient.email, 0);
    await loginMailsDone(app, a.tenantId);
    await loginMailsDone(app, b.tenantId);
    for (const other of [sandboxTwin.email, otherClinics.email, 'nobody@patients.example']) expect(loginMailCount(app, other)).toBe(0);
    expect(loginMailCount(app, patient.email)).toBe(1);
    // The mail names the clinic and carries the code and the link; nothing about the patient.
    expect(mail.subject).toBe('Your sign-in code for Harbor Health');
    expect(mail.code).toMatch(/^\d{6}$/);
    expect(mail.link).toBe(`https://rail.example.test/p/${liveKey}/sign-in?t=${encodeURIComponent(mail.linkToken)}`);
    expect(mail.linkToken.endsWith(`.${mail.code}`)).toBe(true);
    expect(mail.text).toContain(mail.link);
    for (const phi of ['Rosalind', 'Portalpatient', patient.dateOfBirth, 'Harbor Way', patient.email]) expect(mail.text).not.toContain(phi);
    // Every request wrote its row, match or not (the unknown key aside); no code is stored in the clear.
    expect(await countRows(app, 'patient_login_challenges')).toBe(7);
  });

  it('sends no code when two patients share the e-mail and date of birth', async () => {
    const email = `twins.${Date.now()}@patients.example`;
    await portalPatient(app, a.liveKey, { email, firstName: 'One' });
    await portalPatient(app, a.liveKey, { email, firstName: 'Two' });
    expect((await requestLogin(app, liveKey, { email, dateOfBirth: '1980-02-29' })).status).toBe(202);
    await loginMailsDone(app, a.tenantId);
    expect(loginMailCount(app, email)).toBe(0);
  });

  it('admits a live key only from its allowed origins and the service itself; sandbox keys from anywhere', async () => {
    const patient = await portalPatient(app, a.liveKey);
    const body = { email: patient.email, dateOfBirth: patient.dateOfBirth };
    const refused = await requestLogin(app, liveKey, body, { origin: 'https://evil.example', 'x-forwarded-for': anyAddress() });
    expectEnvelope(refused, 403, 'permission_error', 'origin_not_allowed');
    expect((await requestLogin(app, liveKey, body, { origin: 'https://rail.example.test', 'x-forwarded-for': anyAddress() })).status).toBe(202);
    expect((await requestLogin(app, sandboxKey, body, { origin: 'https://anywhere.example', 'x-forwarded-for': anyAddress() })).status).toBe(202);
  });
});

describe('the code', () => {
  it('signs the patient in once; the session reads their own record only', async () => {
    const patient = await portalPatient(app, a.liveKey, { firstName: 'Grace' });
    const mail = await mailedCode(app, liveKey, patient);
    const ok = await verifyCode(app, liveKey, { email: patient.email.toUpperCase(), code: mail.code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.token).toMatch(/^pt_[0-9A-Za-z]{43}$/);
    const expires = Date.parse(ok.body.expiresAt) - Date.now();
    expect(expires).toBeGreaterThan(29 * 60_000);
    expect(expires).toBeLessThanOrEqual(30 * 60_000);
    const me = await asPatient(app, ok.body.token, 'GET', '/me');
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ firstName: 'Grace', email: patient.email, livemode: true });
    // Single use: the same code again, and its link, are refused.
    expectEnvelope(await verifyCode(app, liveKey, { email: patient.email, code: mail.code }), 401, 'authentication_error', 'invalid_code');
    expectEnvelope(await verifyLink(app, liveKey, mail.linkToken), 401, 'authentication_error', 'invalid_code');
  });

  it('is one answer for a wrong code, an unknown e-mail, another clinic and another mode', async () => {
    const patient = await portalPatient(app, a.liveKey);
    const mail = await mailedCode(app, liveKey, patient);
    const wrong = mail.code === '000000' ? '111111' : '000000';
    const refusals = [
      await verifyCode(app, liveKey, { email: patient.email, code: wrong }),
      await verifyCode(app, liveKey, { email: 'unknown@patients.example', code: mail.code }),
      await verifyCode(app, otherClinicKey, { email: patient.email, code: mail.code }),
      await verifyCode(app, sandboxKey, { email: patient.email, code: mail.code }),
      await verifyCode(app, 'emb_000000000000000000000000', { email: patient.email, code: mail.code }),
      await verifyLink(app, otherClinicKey, mail.linkToken),
    ];
    for (const res of refusals) {
      expectEnvelope(res, 401, 'authentication_error', 'invalid_code');
      expect(res.body.error.message).toBe(refusals[0].body.error.message);
    }
    // None of them spent the code but the one wrong try against it.
    expect((await verifyCode(app, liveKey, { email: patient.email, code: mail.code })).status).toBe(200);
  });

  it('allows five tries: after five wrong codes the right one is refused too', async () => {
    const patient = await portalPatient(app, a.liveKey);
    const mail = await mailedCode(app, liveKey, patient);
    const wrong = (n: number) => String((Number(mail.code) + n) % 1_000_000).padStart(6, '0');
    const tries = await Promise.all([1, 2, 3, 4, 5].map((n) => verifyCode(app, liveKey, { email: patient.email, code: wrong(n) })));
    for (const res of tries) expect(res.status).toBe(401);
    expectEnvelope(await verifyCode(app, liveKey, { email: patient.email, code: mail.code }), 401, 'authentication_error', 'invalid_code');
    expectEnvelope(await verifyLink(app, liveKey, mail.linkToken), 401, 'authentication_error', 'invalid_code');
  });

  it('expires after ten minutes', async () => {
    const patient = await portalPatient(app, a.liveKey);
    const mail = await mailedCode(app, liveKey, patient);
    later(10 * 60_000 + 1_000);
    expectEnvelope(await verifyCode(app, liveKey, { email: patient.email, code: mail.code }), 401, 'authentication_error', 'invalid_code');
  });

  it('comes with a one-click link that carries the same one-time secret', async () => {
    const patient = await portalPatient(app, a.liveKey);
    const mail = await mailedCode(app, liveKey, patient);
    const ok = await verifyLink(app, liveKey, mail.linkToken);
    expect(ok.status, ok.text).toBe(200);
    expect((await asPatient(app, ok.body.token, 'GET', '/me')).body.email).toBe(patient.email);
    expectEnvelope(await verifyCode(app, liveKey, { email: patient.email, code: mail.code }), 401, 'authentication_error', 'invalid_code');
  });

  it('of an earlier mail stops working once the patient signs in with a later one', async () => {
    const patient = await portalPatient(app, a.liveKey);
    const first = await mailedCode(app, liveKey, patient);
    const second = await mailedCode(app, liveKey, patient);
    expect((await verifyCode(app, liveKey, { email: patient.email, code: second.code })).status).toBe(200);
    expectEnvelope(await verifyLink(app, liveKey, first.linkToken), 401, 'authentication_error', 'invalid_code');
  });

  it('works in sandbox for a sandbox patient, whose session is sandbox', async () => {
    const patient = await portalPatient(app, a.sandboxKey);
    const token = await signedIn(app, sandboxKey, patient);
    expect((await asPatient(app, token, 'GET', '/me')).body).toMatchObject({ livemode: false, email: patient.email });
  });
});

describe('a patient session', () => {
  it('ends at logout', async () => {
    const token = await signedIn(app, liveKey, await portalPatient(app, a.liveKey));
    const out = await asPatient(app, token, 'POST', '/logout', {});
    expect(out.status, out.text).toBe(200);
    expect(out.body).toEqual({ signedOut: true });
    expectEnvelope(await asPatient(app, token, 'GET', '/me'), 401, 'authentication_error', 'invalid_patient_session');
  });

  it('ends after 30 minutes unused, and is kept alive by use for at most 12 hours', async () => {
    const idle = await signedIn(app, liveKey, await portalPatient(app, a.liveKey));
    const busy = await signedIn(app, liveKey, await portalPatient(app, a.liveKey));
    const start = Date.now();
    for (let minutes = 25; minutes < 12 * 60; minutes += 25) {
      setClock(() => new Date(start + minutes * 60_000));
      expect((await asPatient(app, busy, 'GET', '/me')).status, `used at ${minutes} min`).toBe(200);
    }
    expectEnvelope(await asPatient(app, idle, 'GET', '/me'), 401, 'authentication_error', 'invalid_patient_session');
    setClock(() => new Date(start + 12 * 3_600_000 + 60_000));
    expectEnvelope(await asPatient(app, busy, 'GET', '/me'), 401, 'authentication_error', 'invalid_patient_session');
  });

  it('refuses a logout body with fields, and keeps the session', async () => {
    const token = await signedIn(app, liveKey, await portalPatient(app, a.liveKey));
    expectEnvelope(await asPatient(app, token, 'POST', '/logout', { everywhere: true }), 400, 'validation_error');
    expect((await asPatient(app, token, 'GET', '/me')).status).toBe(200);
  });

  it('is refused by the clinic API, and the patient API refuses clinic credentials', async () => {
    const patient = await portalPatient(app, a.liveKey);
    const token = await signedIn(app, liveKey, patient);
    expectEnvelope(await app.request('GET', `/v1/patients/${patient.id}`, { key: token }), 401, 'authentication_error', 'patient_session_not_allowed');
    expectEnvelope(await app.request('GET', '/v1/orders', { key: token }), 401, 'authentication_error', 'patient_session_not_allowed');
    const admin = await createUserAndLogin(app, a.tenantId, { email: `admin-${Date.now()}@clinic.test`, role: 'admin' });
    for (const credential of [a.liveKey, a.sandboxKey, admin.token]) {
      expectEnvelope(await asPatient(app, credential, 'GET', '/me'), 401, 'authentication_error', 'patient_session_required');
    }
    expectEnvelope(await app.request('GET', '/v1/patient/me'), 401, 'authentication_error', 'patient_session_required');
    expectEnvelope(await asPatient(app, `pt_${'x'.repeat(43)}`, 'GET', '/me'), 401, 'authentication_error', 'invalid_patient_session');
  });
});

describe('limits', () => {
  it('per e-mail: a sixth request within 15 minutes is a 429, whatever the address', async () => {
    const patient = await portalPatient(app, a.liveKey);
    const body = { email: patient.email, dateOfBirth: patient.dateOfBirth };
    for (let i = 0; i < 5; i++) expect((await requestLogin(app, liveKey, body)).status).toBe(202);
    const refused = await requestLogin(app, liveKey, body);
    expectEnvelope(refused, 429, 'rate_limit_error', 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same for an address no patient has: the limit tells nothing.
    const unknown = { email: 'no.one.here@patients.example', dateOfBirth: '1990-01-01' };
    for (let i = 0; i < 5; i++) expect((await requestLogin(app, liveKey, unknown)).status).toBe(202);
    expect((await requestLogin(app, liveKey, unknown)).status).toBe(429);
  });

  it('per client address: code checks from one address are limited across e-mails', async () => {
    const address = anyAddress();
    const headers = { origin: PORTAL_ORIGIN, 'x-forwarded-for': address };
    const statuses = [];
    for (let i = 0; i < 31; i++) statuses.push((await verifyCode(app, liveKey, { email: `guess${i}@patients.example`, code: '123456' }, headers)).status);
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('bad input', () => {
  const written = async () => ({
    challenges: await countRows(app, 'patient_login_challenges'),
    sessions: await countRows(app, 'patient_sessions'),
    jobs: await countRows(app, 'jobs'),
  });

  it('is a 400 envelope naming the field, and writes nothing', async () => {
    await loginMailsDone(app, a.tenantId);
    const before = await written();
    const cases: [string, unknown][] = [
      ['/login', { email: 'not-an-email', dateOfBirth: '1980-02-29' }],
      ['/login', { email: 'a@b.example', dateOfBirth: '29/02/1980' }],
      ['/login', { email: 'a@b.example' }],
      ['/login', { email: 'a@b.example', dateOfBirth: '1980-02-29', extra: true }],
      ['/login', { email: `${'x'.repeat(300)}@b.example`, dateOfBirth: '1980-02-29' }],
      ['/login', { email: '<script>alert(1)</script>@b.example', dateOfBirth: '1980-02-29' }],
      ['/login', ['a@b.example']],
      ['/login/verify', { email: 'a@b.example', code: '12345' }],
      ['/login/verify', { email: 'a@b.example', code: 'abcdef' }],
      ['/login/verify', { email: 'a@b.example', code: 123456 }],
      ['/login/verify-link', { token: 'x'.repeat(101) }],
      ['/login/verify-link', {}],
    ];
    for (const [path, body] of cases) {
      const res = await app.request('POST', `/v1/public/patients/${liveKey}${path}`, { body, headers: { origin: PORTAL_ORIGIN, 'x-forwarded-for': anyAddress() } });
      expectEnvelope(res, 400, 'validation_error');
      expect(res.text).not.toContain('script');
    }
    const notJson = await app.request('POST', `/v1/public/patients/${liveKey}/login`, { rawBody: '{"email":', headers: { 'content-type': 'application/json', origin: PORTAL_ORIGIN } });
    expectEnvelope(notJson, 400, 'validation_error');
    const huge = await app.request('POST', `/v1/public/patients/${liveKey}/login`, { rawBody: JSON.stringify({ email: 'a@b.example', dateOfBirth: '1980-02-29', pad: 'x'.repeat(2_000_000) }), headers: { 'content-type': 'application/json', origin: PORTAL_ORIGIN } });
    expect(huge.status).toBe(413);
    expect(await written()).toEqual(before);
  });

  it('a link token of the wrong shape is the same 401, and writes nothing', async () => {
    const before = await written();
    for (const token of ['', 'plc_x.123456', 'garbage', `plc_${'0'.repeat(26)}.12345`]) {
      expectEnvelope(await verifyLink(app, liveKey, token), 401, 'authentication_error', 'invalid_code');
    }
    expect(await written()).toEqual(before);
  });
});
