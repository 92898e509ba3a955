import { expect, test, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { api, newestMailTo, ops, PASSWORD, signInWithPassword, signOut } from './helpers';

/**
 * Intake in the console: a provider reviews a pending questionnaire version (its diff against the version
 * in use, in words) and approves it, while an admin sees the approval refused with its reason; then a
 * patient's submission reaches the review queue, the provider reads the answers (logged) and approves it,
 * and the order is submitted at the simulated pharmacy. The clinic is set up through the API.
 */

const KEY = 'glp1-start';
const v1 = (protocolId: string) => ({
  key: KEY,
  title: 'GLP-1 starter consultation',
  description: 'A few questions so a provider can decide whether a GLP-1 medication is right for you.',
  protocolId,
  items: [
    { linkId: 'dob', text: 'What is your date of birth?', type: 'date', required: true },
    { linkId: 'height', text: 'How tall are you?', type: 'integer', required: true, min: 36, max: 96, unit: 'in' },
    { linkId: 'weight', text: 'How much do you weigh?', type: 'decimal', required: true, min: 60, max: 800, unit: 'lb' },
    { linkId: 'pregnant', text: 'Are you pregnant or breastfeeding?', type: 'boolean', required: true },
    { linkId: 'takesMeds', text: 'Do you take any other medication?', type: 'boolean', required: true },
    { linkId: 'meds', text: 'Which medications do you take?', type: 'text', required: true, enableWhen: { q: 'takesMeds', op: 'eq', value: true } },
  ],
  rules: [
    { id: 'under_18', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'This treatment is for adults 18 and over.' },
    { id: 'bmi_low', when: { q: 'bmi(height, weight)', op: 'lt', value: 27 }, effect: 'disqualify', patientMessage: 'Medication is prescribed for a BMI of 27 or more.' },
    { id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Not during pregnancy or breastfeeding.' },
  ],
});
/** v2: a gallbladder question with a review flag, and a stricter BMI threshold. */
const v2 = (protocolId: string) => {
  const doc = v1(protocolId);
  return {
    ...doc,
    items: [...doc.items, { linkId: 'gallbladder', text: 'Have you had gallbladder disease or gallstones?', type: 'boolean', required: true }],
    rules: [
      doc.rules[0],
      { ...doc.rules[1], when: { q: 'bmi(height, weight)', op: 'lt', value: 30 }, patientMessage: 'Medication is prescribed for a BMI of 30 or more.' },
      doc.rules[2],
      { id: 'gallbladder', when: { q: 'gallbladder', op: 'eq', value: true }, effect: 'review_flag', patientMessage: 'A provider will review your gallbladder history.' },
    ],
  };
};

interface Clinic {
  key: string;
  adminEmail: string;
  providerEmail: string;
  mfaSecret: string;
  pendingId: string;
  patientId: string;
  patientEmail: string;
}

async function setUpClinic(): Promise<Clinic> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Lakeside Intake Clinic' });
  const adminEmail = `admin-${stamp}@clinic.test`;
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Okafor', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e intake setup' });

  // Sunrise keeps an order "submitted" (received) for an hour.
  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: 'SEMA-025', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const pharmacy = await api<{ id: string }>(key, 'POST', '/pharmacies', {
    name: 'Sunrise Compounding',
    adapter: 'simulated',
    settings: { acceptAfterSeconds: 3600, shipAfterSeconds: 3600, deliverAfterSeconds: 7200 },
    states: ['CA'],
  });
  const catalog = await api<{ id: string }>(key, 'POST', `/catalogs/upload?pharmacyConnectionId=${pharmacy.id}`, 'sku,item_code,price_cents,stock,eta_days\nSEMA-025,SUN-0,12900,100,3', 'text/csv');
  await api(key, 'PATCH', `/catalogs/${catalog.id}/approve`, {});
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', { name: 'GLP-1 start', items: [{ productId: product.id, quantity: 4, sig: 'Inject 0.25 mg once weekly', refills: 2 }] });

  // The provider enrols in two-factor through the API and approves v1 there; v2 waits for the console.
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  const first = await api<{ id: string; contentHash: string }>(key, 'POST', '/intake/questionnaires', v1(protocol.id));
  await api(login.accessToken, 'POST', `/intake/questionnaires/${first.id}/approve`, { note: 'Initial version' });
  const pending = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', v2(protocol.id));

  const patientEmail = `patient-${stamp}@example.org`;
  const patient = await api<{ id: string }>(key, 'POST', '/patients', {
    firstName: 'Maria',
    lastName: 'Alvarez',
    dateOfBirth: '1985-04-12',
    sex: 'female',
    email: patientEmail,
    address: { line1: '100 Main St', city: 'San Diego', state: 'CA', postalCode: '92101' },
  });
  return { key, adminEmail, providerEmail, mfaSecret: enroll.secret, pendingId: pending.id, patientId: patient.id, patientEmail };
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();

async function signInProvider(page: Page, clinic: Clinic) {
  await signInWithPassword(page, clinic.providerEmail);
  await page.getByLabel('Authentication code').fill(await freshTotp(clinic.mfaSecret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
}

test.describe.serial('intake', () => {
  let clinic: Clinic;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    clinic = await setUpClinic();
  });

  test('an admin sees the pending questionnaire and its diff, but approving is refused with the reason', async ({ page }) => {
    await signInWithPassword(page, clinic.adminEmail);
    await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
    await nav(page, 'Questionnaires');
    const card = page.locator(`[data-testid="questionnaire-card"][data-key="${KEY}"]`);
    await expect(card).toContainText('In use: v1 · 1 pending approval');
    await expect(card.getByTestId('version-row')).toHaveCount(2);
    await page.getByRole('navigation', { name: 'Questionnaire views' }).getByRole('link', { name: 'Pending approval' }).click();
    const pending = page.locator(`[data-testid="pending-questionnaire"][data-id="${clinic.pendingId}"]`);
    await expect(pending.getByRole('button', { name: /^Approve/ })).toBeDisabled();
    await expect(pending.getByTestId('approve-blocked-reason')).toContainText('for a provider');
    await signOut(page);
  });

  test('a provider reads the diff and approves the pending version, bound to what was shown', async ({ page }) => {
    await signInProvider(page, clinic);
    await nav(page, 'Questionnaires');
    await page.getByRole('navigation', { name: 'Questionnaire views' }).getByRole('link', { name: 'Pending approval' }).click();
    await expect(page).toHaveURL(/\/intake\/questionnaires\/pending$/);
    const pending = page.locator(`[data-testid="pending-questionnaire"][data-id="${clinic.pendingId}"]`);
    const diff = pending.getByTestId('questionnaire-diff');
    await expect(diff).toContainText('questions 1 added, 0 removed, 0 changed; rules 1 added, 0 removed, 1 changed');
    await expect(diff.locator('[data-testid="diff-item"][data-kind="added"]')).toContainText('Have you had gallbladder disease or gallstones?');
    await expect(diff.locator('[data-testid="diff-rule"][data-kind="added"]')).toContainText('Flag for review when “Have you had gallbladder disease or gallstones?” is yes');
    const changed = diff.locator('[data-testid="diff-rule"][data-kind="changed"]');
    await expect(changed).toContainText('Differs in: patientMessage, when');
    // Word by word: only the threshold is marked, removed and added.
    await expect(changed.locator('del').first()).toHaveText('[removed: 27]');
    await expect(changed.locator('ins').first()).toHaveText('[added: 30]');
    await page.screenshot({ path: 'test-results/intake-questionnaire-pending.png', fullPage: true });

    await pending.getByLabel('Note (optional, kept with the approval)').fill('Stricter BMI threshold per the medical director.');
    await pending.getByRole('button', { name: /^Approve/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve questionnaire' }).click();
    await expect(page.getByTestId('questionnaire-approved')).toContainText('Approved: version 2 of glp1-start');
    await expect(pending).toHaveCount(0);

    // The library: v2 in use, approved by the provider by name; v1 retired.
    await page.getByRole('navigation', { name: 'Questionnaire views' }).getByRole('link', { name: 'Library' }).click();
    const card = page.locator(`[data-testid="questionnaire-card"][data-key="${KEY}"]`);
    await expect(card).toContainText('In use: v2');
    await expect(card.locator('[data-testid="version-row"][data-version="2"]').getByTestId('questionnaire-status')).toHaveText('approved');
    await expect(card.locator('[data-testid="version-row"][data-version="2"]').getByTestId('approved-by')).toContainText('Dr. Okafor');
    await expect(card.locator('[data-testid="version-row"][data-version="1"]').getByTestId('questionnaire-status')).toHaveText('retired');

    // One key's page: the version in words, and the comparison with the one before.
    await card.getByRole('link', { name: 'v2 of GLP-1 starter consultation' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'GLP-1 starter consultation' })).toBeVisible();
    await expect(page.getByText('Approval note: “Stricter BMI threshold per the medical director.”')).toBeVisible();
    await expect(page.getByTestId('preview-item')).toHaveCount(7);
    await expect(page.getByTestId('preview-item').nth(5)).toContainText('shown only when “Do you take any other medication?” is yes');
    await expect(page.getByTestId('preview-rule').nth(1)).toContainText('Patient is told: “Medication is prescribed for a BMI of 30 or more.”');
    await expect(page.getByTestId('questionnaire-diff')).toContainText('From v1 to v2');
    await page.screenshot({ path: 'test-results/intake-questionnaire-versions.png', fullPage: true });
  });

  test('a submission is reviewed: answers on request (logged), approved, and the order is submitted', async ({ page }) => {
    // The patient's answers, through the API (in-app submission): eligible, with the gallbladder flag.
    const submission = await api<{ id: string; status: string; flags: string[] }>(clinic.key, 'POST', '/intake/submissions', {
      questionnaireKey: KEY,
      patientId: clinic.patientId,
      answers: { dob: '1985-04-12', height: 66, weight: 220, pregnant: false, takesMeds: false, gallbladder: true },
    });
    expect(submission.status).toBe('pending_review');
    expect(submission.flags).toEqual(['gallbladder']);

    await signInProvider(page, clinic);
    await nav(page, 'Intake');
    await expect(page).toHaveURL(/\/intake\/submissions$/);
    const row = page.locator(`[data-testid="submission-row"][data-submission-id="${submission.id}"]`);
    await expect(row.getByTestId('submission-verdict')).toHaveText('eligible');
    await expect(row.getByTestId('submission-flag')).toContainText('gallbladder — Flag for review when “Have you had gallbladder disease or gallstones?” is yes');
    await row.getByTestId('submission-patient').click();

    await expect(page.getByRole('heading', { level: 1, name: 'Intake submission' })).toBeVisible();
    await expect(page.getByTestId('submission-answers')).toHaveCount(0);
    await expect(page.getByText('showing them is recorded in the patient’s access log')).toBeVisible();
    await page.getByRole('button', { name: 'Show answers' }).click();
    await expect(page.getByTestId('answers-logged')).toHaveText('This read was recorded in the patient’s access log.');
    const answers = page.getByTestId('answer-row');
    await expect(answers.filter({ hasText: 'How tall are you?' })).toContainText('66 in');
    await expect(answers.filter({ hasText: 'Have you had gallbladder disease or gallstones?' })).toContainText('Yes');
    await page.screenshot({ path: 'test-results/intake-submission-detail.png', fullPage: true });

    await page.getByLabel('Note (required to reject)').fill('Gallbladder history reviewed: resolved in 2019.');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve and order' }).click();
    const outcome = page.getByTestId('review-outcome');
    await expect(outcome).toContainText('Approved: the order was created');
    await outcome.getByTestId('review-order-link').click();
    await expect(page).toHaveURL(/\/orders\/ord_/);
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('submitted');
    await expect(page.getByTestId('order-pharmacy-name')).toHaveText('Sunrise Compounding');
  });
  test('a hosted link sent from the patient page is completed at 390 px, approved in the queue, and the order is submitted', async ({ page, browser }) => {
    // The admin sends the link from the patient's page.
    await signInWithPassword(page, clinic.adminEmail);
    await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
    await page.goto(`/patients/${clinic.patientId}`);
    await page.getByLabel('Questionnaire', { exact: true }).selectOption({ label: 'GLP-1 starter consultation (v2)' });
    await page.getByRole('button', { name: 'Send link' }).click();
    await expect(page.getByTestId('hosted-link-sent')).toContainText('Sent to the patient’s e-mail.');
    await page.screenshot({ path: 'test-results/intake-hosted-link-sent.png', fullPage: true });
    await signOut(page);

    // The patient, on a phone, without any console session.
    const mail = newestMailTo(clinic.patientEmail);
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const patient = await phone.newPage();
    await patient.goto(new URL(mail.link).pathname);
    await expect(patient.getByRole('heading', { level: 1, name: 'GLP-1 starter consultation' })).toBeVisible();
    await patient.getByLabel('What is your date of birth?').fill('1985-04-12');
    await patient.getByLabel('How tall are you?').fill('66');
    await patient.getByLabel('How much do you weigh?').fill('220');
    await patient.getByRole('group', { name: 'Are you pregnant or breastfeeding?' }).getByLabel('No').check();
    await patient.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('No').check();
    await patient.getByRole('group', { name: 'Have you had gallbladder disease or gallstones?' }).getByLabel('No').check();
    await patient.getByRole('button', { name: 'Send my answers' }).click();
    await expect(patient.getByRole('heading', { level: 1, name: 'Thank you, your answers were sent' })).toBeVisible();
    await patient.screenshot({ path: 'test-results/intake-hosted-done-390.png', fullPage: true });
    await phone.close();

    // The provider approves it from the queue; the order is submitted at Sunrise.
    await signInProvider(page, clinic);
    await nav(page, 'Intake');
    const row = page.getByTestId('submission-row').filter({ hasText: clinic.patientId }).first();
    await expect(row.getByTestId('submission-verdict')).toHaveText('eligible');
    await expect(row.getByTestId('submission-status')).toHaveText('pending review');
    await row.getByTestId('submission-patient').click();
    await expect(page.getByText(/via a hosted link/)).toBeVisible();
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve and order' }).click();
    await page.getByTestId('review-outcome').getByTestId('review-order-link').click();
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('submitted');
    await expect(page.getByTestId('order-pharmacy-name')).toHaveText('Sunrise Compounding');
  });
});
