import { expect, test, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { DEMO_OUTCOME_LINK } from '../server/domain/seed/demo-outcome';
import { base, ops, PASSWORD } from './helpers';
import { api, expectAccessible, fillContact } from './flows-world';

/**
 * Issue 50 item 4 (DESIGN decisions 31 and 46) on the patient pages, at 390 and 1280 px, axe clean: the state
 * of residence (52 options) is a labelled native select, not 52 radios; "None of these" unticks the other
 * options and ticking another unticks it; the date of birth offers the browser's autofill (`bday`); an outcome
 * button with a label and no address says its label as the next step, and the demo's outcome button (a label
 * and a page) is a working link.
 */

const STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO',
  'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'PR', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
];
const Q = {
  dob: 'What is your date of birth?',
  state: 'Which US state do you live in?',
  conditions: 'Do you have any of these conditions?',
  pregnant: 'Are you pregnant or breastfeeding?',
};
const NEXT_STEP = 'Watch your inbox: the clinic e-mails you within a day';
const DOB = '1984-06-02';

const questionnaire = (protocolId: string) => ({
  key: 'conditions-check',
  title: 'Your health',
  protocolId,
  items: [
    { linkId: 'dob', text: Q.dob, type: 'date', required: true, fact: 'dateOfBirth' },
    { linkId: 'state', text: Q.state, type: 'choice', required: true, fact: 'state', options: STATES.map((value) => ({ value, label: value === 'CA' ? 'California' : value })) },
    {
      linkId: 'conditions',
      text: Q.conditions,
      type: 'multi_choice',
      required: true,
      options: [
        { value: 'htn', label: 'High blood pressure' },
        { value: 'dm2', label: 'Type 2 diabetes' },
        { value: 'none', label: 'None of these', exclusive: true },
      ],
    },
    { linkId: 'pregnant', text: Q.pregnant, type: 'boolean', required: true },
  ],
  rules: [{ id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Please talk to your doctor in person first.' }],
});

const flowDocument = {
  steps: [
    { id: 'welcome', kind: 'landing', blocks: { headline: 'Care that fits your life', cta: 'Start' } },
    { id: 'about', kind: 'medical', title: 'About you', linkIds: ['dob', 'state', 'conditions', 'pregnant'] },
    { id: 'consent', kind: 'consent', title: 'Consent to a telehealth review', text: 'I agree that a clinician reviews my answers.', version: '2026-01' },
    { id: 'contact', kind: 'contact', title: 'Where can the clinic reach you?' },
    {
      id: 'result',
      kind: 'outcome',
      // A button label and no address (no checkout either): the label is said as the first next step.
      blocks: { eligibleTitle: 'You may be eligible', eligibleBody: 'A clinician will review your answers.', disqualifiedTitle: 'We cannot help online', disqualifiedBody: 'Please talk to your own doctor.', cta: NEXT_STEP },
    },
  ],
  theme: { tokens: { primary: '#0f766e' } },
  settings: { questionnaireKey: 'conditions-check' },
};

interface World {
  key: string;
  flowId: string;
  embedKey: string;
  /** A one-time intake link (/i/{token}) for a patient of the clinic. */
  hostedLink(): Promise<string>;
}
let world: World;

test.beforeAll(async () => {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Bayview Health' });
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Reyes', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e choices setup', mode: 'live' });
  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: `SEMA-${stamp}`, form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', { name: 'GLP-1 start', items: [{ productId: product.id, quantity: 4, sig: 'Inject 0.25 mg once weekly', refills: 2 }] });
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  const asProvider = async (pathname: string) => {
    const res = await fetch(`${base()}/v1${pathname}`, { method: 'POST', headers: { authorization: `Bearer ${login.accessToken}`, 'x-mode': 'live', 'content-type': 'application/json' }, body: '{}' });
    expect(res.ok, `${pathname}: ${await res.clone().text()}`).toBe(true);
  };
  const q = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', questionnaire(protocol.id));
  await asProvider(`/intake/questionnaires/${q.id}/approve`);
  const flow = await api<{ id: string }>(key, 'POST', '/flows', { name: 'Conditions check', document: flowDocument });
  const published = await api<{ status: string }>(key, 'POST', `/flows/${flow.id}/publish`, {});
  if (published.status !== 'published') await asProvider(`/flows/${flow.id}/approve`);
  const embedKey = (await api<{ id: string }>(key, 'POST', '/embed-keys', { name: 'site', allowedOrigins: ['https://www.bayview-health.example'], flowId: flow.id })).id;
  world = {
    key,
    flowId: flow.id,
    embedKey,
    hostedLink: async () => {
      const patient = await api<{ id: string }>(key, 'POST', '/patients', { firstName: 'Maria', lastName: 'Alvarez', dateOfBirth: DOB, sex: 'female', email: `maria-${stamp}@example.org` });
      const link = await api<{ url: string }>(key, 'POST', '/intake/hosted-links', { patientId: patient.id, questionnaireKey: 'conditions-check' });
      return new URL(link.url).pathname;
    },
  };
});

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const next = (page: Page, name = 'Continue') => page.getByRole('button', { name, exact: true }).click();

/**
 * The questions page, the same on the hosted flow and the one-time link: the date of birth offers autofill,
 * the 52 states are one labelled native select, and "None of these" and the other options untick each other.
 */
async function answerQuestions(page: Page, where: string) {
  const dob = page.getByLabel(Q.dob);
  await expect(dob).toHaveAttribute('type', 'date');
  await expect(dob).toHaveAttribute('autocomplete', 'bday');
  await dob.fill(DOB);

  const state = page.getByRole('combobox', { name: Q.state });
  expect(await state.evaluate((el) => el.tagName)).toBe('SELECT');
  await expect(state).toHaveAttribute('autocomplete', 'address-level1');
  await expect(state.locator('option')).toHaveCount(53); // "Choose a state" and the 52
  await expect(page.getByRole('radio', { name: 'California' })).toHaveCount(0);
  await state.selectOption('CA');
  await expect(state).toHaveValue('CA');

  const conditions = page.getByRole('group', { name: Q.conditions });
  const htn = conditions.getByRole('checkbox', { name: 'High blood pressure' });
  const dm2 = conditions.getByRole('checkbox', { name: 'Type 2 diabetes' });
  const none = conditions.getByRole('checkbox', { name: 'None of these' });
  await htn.check();
  await dm2.check();
  await expect(htn).toBeChecked();
  await expect(dm2).toBeChecked();
  // "None of these" unticks the others, and says so to a screen reader.
  await none.check();
  await expect(none).toBeChecked();
  await expect(htn).not.toBeChecked();
  await expect(dm2).not.toBeChecked();
  await expect(conditions.getByText('Unticked: High blood pressure, Type 2 diabetes.')).toBeAttached();
  // Another option unticks "None of these".
  await htn.check();
  await expect(htn).toBeChecked();
  await expect(none).not.toBeChecked();
  await expect(conditions.getByText('Unticked: None of these.')).toBeAttached();
  // And back: "None of these" alone is what this patient sends.
  await none.check();
  await expect(htn).not.toBeChecked();
  await page.getByRole('group', { name: Q.pregnant }).getByLabel('No').check();
  await expectAccessible(page, `${where}: the questions`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

async function runFlowToOutcome(page: Page, width: number) {
  await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
  await page.goto(`/f/${world.embedKey}`);
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(heading(page, 'About you')).toBeFocused();
  await answerQuestions(page, `hosted flow at ${width} px`);
  await page.screenshot({ path: `test-results/choices-questions-${width}.png`, fullPage: true });
  await next(page);
  await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
  await page.getByLabel('I have read the text above and agree to it').check();
  await page.getByRole('button', { name: 'I agree, continue' }).click();
  await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
  // The contact step opens with the answered facts (decision 31).
  await expect(page.getByLabel('State you live in')).toHaveValue('CA');
  await fillContact(page, { name: 'Dana Whitfield', email: `dana-${Date.now()}@example.org`, dateOfBirth: DOB });
  await next(page, 'See my result');
  await expect(heading(page, 'You may be eligible')).toBeFocused();
}

test('the hosted flow at 390 px: a select for the states, "None of these", bday, and a button label without an address said as the next step', async ({ page }) => {
  await runFlowToOutcome(page, 390);
  const nextSteps = page.getByRole('list').filter({ hasText: 'A licensed provider reviews your answers' });
  await expect(nextSteps.getByRole('listitem').first()).toHaveText(NEXT_STEP);
  await expect(page.getByRole('link', { name: NEXT_STEP })).toHaveCount(0);
  await expect(page.getByTestId('outcome-action')).toHaveCount(0);
  await expectAccessible(page, 'outcome with a label and no address at 390 px');
  await page.screenshot({ path: 'test-results/choices-outcome-next-step-390.png', fullPage: true });
});

test('the one-time intake link at 1280 px: the same questions, sent with "None of these" alone', async ({ page }) => {
  const path = await world.hostedLink();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(path);
  await expect(heading(page, 'Your health')).toBeVisible();
  await answerQuestions(page, 'hosted intake at 1280 px');
  await page.getByRole('button', { name: 'Send my answers' }).click();
  await expect(heading(page, 'Thank you, your answers were sent')).toBeFocused();
  await expectAccessible(page, 'hosted intake outcome at 1280 px');
});

test("the demo's outcome button at 1280 px: a working link to its page", async ({ page }) => {
  // The demo flow's outcome (server/domain/seed/demo-outcome.ts) as this clinic's copy: a presentation change, published at once.
  await api(world.key, 'PATCH', `/flows/${world.flowId}`, { stepPatches: [{ stepId: 'result', blocks: { ...DEMO_OUTCOME_LINK } }] });
  const published = await api<{ status: string }>(world.key, 'POST', `/flows/${world.flowId}/publish`, {});
  expect(published.status).toBe('published');
  // The page it opens is on another site: answered here, so the test needs no network beyond the service.
  await page.route(`${new URL(DEMO_OUTCOME_LINK.ctaUrl).origin}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><html lang="en"><title>Medicines</title><h1>Medicines</h1></html>' }),
  );

  await runFlowToOutcome(page, 1280);
  const button = page.getByRole('link', { name: DEMO_OUTCOME_LINK.cta });
  await expect(button).toHaveAttribute('href', DEMO_OUTCOME_LINK.ctaUrl);
  await expect(page.getByRole('list').filter({ hasText: 'A licensed provider reviews your answers' })).not.toContainText(DEMO_OUTCOME_LINK.cta);
  await expectAccessible(page, 'outcome with the demo button at 1280 px');
  await page.screenshot({ path: 'test-results/choices-outcome-demo-button-1280.png', fullPage: true });
  await button.click();
  await expect(page).toHaveURL(DEMO_OUTCOME_LINK.ctaUrl);
  await expect(page.getByRole('heading', { level: 1, name: 'Medicines' })).toBeVisible();
});
