import { expect, type FrameLocator, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { api, base, ops, PASSWORD } from './helpers';
import { seriousAxeProblems } from './axe';

export { api };

/*
 * A clinic with a published flow, set up the way a clinic would: products and a protocol, a questionnaire
 * approved by its provider, a flow created, published and approved by that provider, and embed keys.
 */

const questionnaire = (protocolId: string) => ({
  key: 'weight-check',
  title: 'Weight care check',
  protocolId,
  items: [
    { linkId: 'dob', text: 'Date of birth', type: 'date', required: true },
    { linkId: 'pregnant', text: 'Are you pregnant or breastfeeding?', type: 'boolean', required: true },
    { linkId: 'takesMeds', text: 'Do you take any other medication?', type: 'boolean', required: true },
    { linkId: 'meds', text: 'Which medications do you take?', type: 'text', required: true, enableWhen: { q: 'takesMeds', op: 'eq', value: true } },
    { linkId: 'goal', text: 'What matters most to you?', type: 'choice', required: false, options: [{ value: 'price', label: 'Price' }, { value: 'speed', label: 'Speed' }] },
  ],
  rules: [
    { id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Please talk to your doctor in person first.' },
    { id: 'minor', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'This service is for adults.' },
  ],
});

export const FLOW_COPY = {
  headline: 'Weight care that fits your life',
  eligibleTitle: 'You may be eligible',
  disqualifiedTitle: 'We cannot help online',
};

const flowDocument = {
  steps: [
    { id: 'welcome', kind: 'landing', blocks: { headline: FLOW_COPY.headline, body: 'Answer a few questions. A licensed clinician reviews every request.', cta: 'Start' } },
    {
      id: 'goals',
      kind: 'quiz',
      blocks: { title: 'What brings you here?' },
      questions: [{ id: 'motivation', text: 'Main reason', type: 'choice', required: true, options: [{ value: 'health', label: 'Better health' }, { value: 'energy', label: 'More energy' }] }],
    },
    { id: 'about', kind: 'medical', title: 'About you', linkIds: ['dob', 'pregnant'] },
    { id: 'medications', kind: 'medical', title: 'Your medications', linkIds: ['takesMeds', 'meds', 'goal'] },
    { id: 'consent', kind: 'consent', title: 'Consent to a telehealth review', text: 'I agree that a clinician reviews my answers.\n\nI can withdraw at any time.', version: '2026-01' },
    { id: 'contact', kind: 'contact', title: 'Where can the clinic reach you?' },
    {
      id: 'result',
      kind: 'outcome',
      blocks: { eligibleTitle: FLOW_COPY.eligibleTitle, eligibleBody: 'A clinician will review your answers within one business day.', disqualifiedTitle: FLOW_COPY.disqualifiedTitle, disqualifiedBody: 'Please talk to your own doctor.' },
    },
  ],
  theme: { tokens: { primary: '#0f766e', radius: '12px' } },
  settings: { questionnaireKey: 'weight-check' },
};

export interface FlowClinic {
  tenantId: string;
  key: string;
  flowId: string;
  /** The clinic's provider (licensed in CA, two-factor enrolled with `mfaSecret`). */
  providerEmail: string;
  mfaSecret: string;
  /** A live embed key serving the flow (or, with `intake`, public intake of its questionnaire). */
  embedKey(allowedOrigins: string[], intake?: boolean): Promise<string>;
}

/** A live clinic whose flow is published and provider-approved. */
export async function clinicWithFlow(name: string): Promise<FlowClinic> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name });
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Reyes', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e flow setup', mode: 'live' });
  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: `SEMA-${stamp}`, form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', { name: 'GLP-1 start', items: [{ productId: product.id, quantity: 4, sig: 'Inject 0.25 mg once weekly', refills: 2 }] });

  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  // The provider's token acts in sandbox unless told otherwise (X-Mode); the clinic here is live.
  const asProvider = async <T>(method: string, pathname: string, body: unknown) => {
    const res = await fetch(`${base()}/v1${pathname}`, {
      method,
      headers: { authorization: `Bearer ${login.accessToken}`, 'x-mode': 'live', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.ok, `${method} ${pathname}: ${await res.clone().text()}`).toBe(true);
    return res.json() as Promise<T>;
  };
  const q = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', questionnaire(protocol.id));
  await asProvider('POST', `/intake/questionnaires/${q.id}/approve`, {});

  const flow = await api<{ id: string }>(key, 'POST', '/flows', { name: 'Weight care', document: flowDocument });
  const published = await api<{ status: string }>(key, 'POST', `/flows/${flow.id}/publish`, {});
  if (published.status !== 'published') await asProvider('POST', `/flows/${flow.id}/approve`, {});
  return {
    tenantId: tenant.id,
    key,
    flowId: flow.id,
    providerEmail,
    mfaSecret: enroll.secret,
    embedKey: async (allowedOrigins, intake = false) =>
      (await api<{ id: string }>(key, 'POST', '/embed-keys', { name: 'site', allowedOrigins, ...(intake ? { questionnaireKeys: ['weight-check'] } : { flowId: flow.id }) })).id,
  };
}

/** Fills the contact step (hosted page or the widget's frame) as a patient in California would, shipping address and phone included. */
export async function fillContact(scope: Page | FrameLocator, person: { name: string; email: string; dateOfBirth: string }) {
  await scope.getByLabel('Full name').fill(person.name);
  await scope.getByLabel('E-mail address').fill(person.email);
  await scope.getByLabel('Phone number').fill('(415) 555-0134');
  await scope.getByLabel('Date of birth').fill(person.dateOfBirth);
  await scope.getByLabel('Street address').fill('1 Market St');
  await scope.getByLabel('City').fill('San Francisco');
  await scope.getByLabel('State you live in').selectOption('CA');
  await scope.getByLabel('ZIP code').fill('94105');
}

export async function expectAccessible(page: Page, where: string) {
  expect(await seriousAxeProblems(page), `axe on ${where}`).toEqual([]);
}

/** Fails the test on any request to another origin than the service (and `also`), and on any CSP violation. */
export function watchPage(page: Page, also: string[] = []) {
  const outside: string[] = [];
  const violations: string[] = [];
  const allowed = new Set([new URL(base()).origin, ...also]);
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && !allowed.has(url.origin)) outside.push(r.url());
  });
  page.on('console', (m) => {
    if (/content security policy/i.test(m.text())) violations.push(m.text());
  });
  return { outside, violations };
}
