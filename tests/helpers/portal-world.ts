import { expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { TestApp } from './harness';
import { jobsDone, waitFor } from './webhooks';

/** The patient portal's sign-in over HTTP (DESIGN decision 39), as a patient's browser or app calls it. */

export const PORTAL_ORIGIN = 'https://portal.clinic-a.example';

const octet = () => Math.floor(Math.random() * 254) + 1;
/**
 * A client address of its own per call (the test apps trust loopback's X-Forwarded-For, TRUST_PROXY=loopback), so
 * the per-address sign-in limits count only where a test means them to.
 */
export const anyAddress = () => `10.${octet()}.${octet()}.${octet()}`;
const browser = () => ({ origin: PORTAL_ORIGIN, 'x-forwarded-for': anyAddress() });
export const LOGIN_MAIL_JOB = 'patient_login.mail';

/** An embed key of the clinic behind `key`, allowing `origins` (live keys check them). */
export async function portalKey(app: TestApp, key: string, origins: string[] = [PORTAL_ORIGIN]): Promise<string> {
  const res = await app.request('POST', '/v1/embed-keys', { key, body: { allowedOrigins: origins } });
  if (res.status !== 201) throw new Error(`embed key: ${res.status} ${res.text}`);
  return res.body.id as string;
}

/** A patient of the clinic behind `key`, with an e-mail and date of birth to sign in with. */
export async function portalPatient(app: TestApp, key: string, fields: Record<string, unknown> = {}): Promise<{ id: string; email: string; dateOfBirth: string }> {
  const body = {
    firstName: 'Rosalind',
    lastName: 'Portalpatient',
    dateOfBirth: '1980-02-29',
    sex: 'female',
    email: `rosalind.${Math.random().toString(36).slice(2, 10)}@patients.example`,
    address: { line1: '1 Harbor Way', city: 'Oakland', state: 'CA', postalCode: '94607' },
    ...fields,
  };
  const res = await app.request('POST', '/v1/patients', { key, body });
  if (res.status !== 201) throw new Error(`patient: ${res.status} ${res.text}`);
  return { id: res.body.id, email: res.body.email, dateOfBirth: res.body.dateOfBirth };
}

export const requestLogin = (app: TestApp, embedKey: string, body: unknown, headers: Record<string, string> = browser()) =>
  app.request('POST', `/v1/public/patients/${embedKey}/login`, { body, headers });

export const verifyCode = (app: TestApp, embedKey: string, body: unknown, headers: Record<string, string> = browser()) =>
  app.request('POST', `/v1/public/patients/${embedKey}/login/verify`, { body, headers });

export const verifyLink = (app: TestApp, embedKey: string, token: string, headers: Record<string, string> = browser()) =>
  app.request('POST', `/v1/public/patients/${embedKey}/login/verify-link`, { body: { token }, headers });

export interface LoginMail {
  to: string;
  subject: string;
  text: string;
  link: string;
  code: string;
  /** The link's `t` parameter (challenge id and code). */
  linkToken: string;
}

/** The outbox's finished messages (a `.partial` file is one being written: the mailer renames it when done). */
function outbox(app: TestApp): { to: string; subject: string; text: string; link?: string }[] {
  const dir = app.services.config.MAIL_OUTBOX_DIR;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
}

const loginMails = (app: TestApp, to: string): LoginMail[] =>
  outbox(app)
    .filter((m) => m.to === to && m.subject.startsWith('Your sign-in code'))
    .map((m) => ({ ...(m as LoginMail), code: /\n {4}(\d{6})\n/.exec(m.text)?.[1] ?? '', linkToken: new URL(m.link!).searchParams.get('t') ?? '' }));

/** How many sign-in mails `to` has received so far. */
export const loginMailCount = (app: TestApp, to: string) => loginMails(app, to).length;

/** The newest sign-in mail to `to` once there are more than `before` (the worker sends them). */
export async function nextLoginMail(app: TestApp, to: string, before: number): Promise<LoginMail> {
  const mails = await waitFor(() => {
    const found = loginMails(app, to);
    return found.length > before ? found : null;
  }, { what: `sign-in mail number ${before + 1} to ${to}` });
  return mails[mails.length - 1];
}

/** Asks for a code and reads it from the mail. */
export async function mailedCode(app: TestApp, embedKey: string, patient: { email: string; dateOfBirth: string }, headers?: Record<string, string>): Promise<LoginMail> {
  const before = loginMailCount(app, patient.email);
  const res = await requestLogin(app, embedKey, { email: patient.email, dateOfBirth: patient.dateOfBirth }, headers);
  expect(res.status, res.text).toBe(202);
  return nextLoginMail(app, patient.email, before);
}

/** A signed-in patient's session token. */
export async function signedIn(app: TestApp, embedKey: string, patient: { email: string; dateOfBirth: string }, headers?: Record<string, string>): Promise<string> {
  const mail = await mailedCode(app, embedKey, patient, headers);
  const res = await verifyCode(app, embedKey, { email: patient.email, code: mail.code }, headers);
  expect(res.status, res.text).toBe(200);
  return res.body.token as string;
}

/** Every sign-in mail job of the tenant has run: whatever it was to send has been sent. */
export const loginMailsDone = (app: TestApp, tenantId: string) => jobsDone(app, { tenantId, kind: LOGIN_MAIL_JOB });

/** Calls a patient endpoint with a patient's token (or any other bearer). */
export const asPatient = (app: TestApp, token: string, method: string, path: string, body?: unknown) => app.request(method, `/v1/patient${path}`, { key: token, body });
