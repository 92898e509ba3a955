import { expect, test, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { api, base, ops, PASSWORD, signInWithPassword } from './helpers';
import { seriousAxeProblems } from './axe';

/**
 * Experiments in the console (issue 24, item 5): on a live flow, an admin starts an A/B test of the landing
 * copy with both arms previewed side by side (clinical steps locked and identical); a copy change of a
 * clinical step is refused naming the step; sessions arrive and the results render per arm with the
 * analysis in words and the too-little-data banner; the admin stops it with a winner, folds the variant
 * into the draft and publishes it (copy-only, so at once). Axe on the page.
 */

const HEADLINE = 'See if treatment is right for you';
const VARIANT_HEADLINE = 'Start losing weight this week';

const document = {
  steps: [
    { id: 'welcome', kind: 'landing', blocks: { headline: HEADLINE, body: 'A few questions, about five minutes.', cta: 'Start' } },
    { id: 'health', kind: 'medical', title: 'About your health', linkIds: ['dob', 'height', 'weight'] },
    { id: 'consent', kind: 'consent', title: 'Consent to telehealth', text: 'I agree to be assessed by a licensed provider through telehealth.', version: 'v1' },
    { id: 'contact', kind: 'contact', title: 'Your details' },
    {
      id: 'result',
      kind: 'outcome',
      blocks: { eligibleTitle: 'You may be a good fit', eligibleBody: 'A provider will review your answers.', disqualifiedTitle: 'Not a fit', disqualifiedBody: 'Please talk to your doctor.' },
    },
  ],
  theme: { tokens: {} },
  settings: { questionnaireKey: 'weight-exp' },
};

interface Clinic {
  adminEmail: string;
  flowId: string;
  embedKey: string;
}

/** A clinic with an approved questionnaire and a flow live for patients (v1 approved by a provider), and its embed key. */
async function setUpClinic(): Promise<Clinic> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Harbor Experiments Clinic' });
  const adminEmail = `admin-${stamp}@clinic.test`;
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Okafor', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e experiments setup' });
  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: 'SEMA-025', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', { name: 'GLP-1 start', items: [{ productId: product.id, quantity: 4, sig: 'Inject 0.25 mg once weekly', refills: 2 }] });

  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  const q = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', {
    key: 'weight-exp',
    title: 'Weight management start',
    protocolId: protocol.id,
    items: [
      { linkId: 'dob', text: 'What is your date of birth?', type: 'date', required: true },
      { linkId: 'height', text: 'How tall are you?', type: 'integer', required: true, min: 36, max: 96, unit: 'in' },
      { linkId: 'weight', text: 'How much do you weigh?', type: 'decimal', required: true, min: 60, max: 800, unit: 'lb' },
    ],
    rules: [],
  });
  await api(login.accessToken, 'POST', `/intake/questionnaires/${q.id}/approve`, {});

  const flow = await api<{ id: string }>(key, 'POST', '/flows', { name: 'Weight loss experiments', document });
  const publication = await api<{ status: string }>(key, 'POST', `/flows/${flow.id}/publish`, {});
  expect(publication.status).toBe('pending_approval');
  await api(login.accessToken, 'POST', `/flows/${flow.id}/approve`, {});
  const embed = await api<{ id: string }>(key, 'POST', '/embed-keys', { name: 'Homepage', allowedOrigins: ['https://clinic.example'], flowId: flow.id });
  return { adminEmail, flowId: flow.id, embedKey: embed.id };
}

async function signInAdmin(page: Page, clinic: Clinic) {
  await signInWithPassword(page, clinic.adminEmail);
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
}

async function noSeriousViolations(page: Page, label: string) {
  await page.waitForLoadState('networkidle');
  expect.soft(await seriousAxeProblems(page), `axe on ${label}`).toEqual([]);
}

test.describe.serial('experiments console', () => {
  let clinic: Clinic;
  const experimentsPath = () => `/flows/${clinic.flowId}/experiments`;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    clinic = await setUpClinic();
  });

  test('create: both arms previewed, clinical steps locked; a clinical override refused naming the step', async ({ page }) => {
    await signInAdmin(page, clinic);
    await page.goto(`/flows/${clinic.flowId}`);
    await page.getByRole('link', { name: 'Experiments', exact: true }).click();
    await expect(page).toHaveURL(/\/experiments$/);
    await expect(page.getByText('No experiments on this flow yet.')).toBeVisible();
    await page.getByRole('button', { name: 'New experiment' }).click();

    const form = page.getByRole('form', { name: 'Start an experiment' });
    await form.getByLabel('Experiment name').fill('Headline test');
    await form.getByLabel('Variant share of new sessions (%)').fill('50');
    await form.getByLabel('Step', { exact: true }).selectOption('welcome');
    await form.getByLabel('Field', { exact: true }).selectOption('headline');
    await form.getByLabel('Variant text').fill(VARIANT_HEADLINE);
    await form.getByRole('button', { name: 'Add copy change' }).click();

    const control = page.getByTestId('arm-control');
    const variant = page.getByTestId('arm-variant');
    await expect(control.getByTestId('theme-preview')).toContainText(HEADLINE);
    await expect(variant.getByTestId('theme-preview')).toContainText(VARIANT_HEADLINE);
    // The clinical steps: locked in both arms, and drawn the same.
    for (const arm of [control, variant]) {
      await expect(arm.getByTestId('locked-badge')).toHaveCount(3);
      await expect(arm.locator('[data-testid="arm-step"][data-locked]')).toHaveCount(3);
    }
    await variant.getByRole('button', { name: /Consent “consent”/ }).click();
    await expect(variant.getByTestId('theme-preview')).toContainText('Consent to telehealth');
    expect(await variant.getByTestId('theme-preview').innerText()).toBe(await control.getByTestId('theme-preview').innerText());
    await noSeriousViolations(page, 'the create form with both arms');

    // A copy change of the consent step: the preview says it is locked and the server refuses it by name.
    await form.getByLabel('Step', { exact: true }).selectOption('consent');
    await form.getByLabel('Variant text').fill('Just tap agree');
    await form.getByRole('button', { name: 'Add copy change' }).click();
    await expect(form.getByTestId('preview-note')).toContainText('“consent”');
    await form.getByRole('button', { name: 'Start experiment' }).click();
    await expect(form.getByTestId('create-error')).toContainText('Step “consent”');
    await expect(form.getByTestId('create-error')).toContainText('clinical plane');
    await expect(form.getByTestId('create-error-param')).toHaveText('Field: overrides.1.stepId');
    await expect(page.getByTestId('experiment')).toHaveCount(0);

    // Back to the copy change alone, typed in the JSON box.
    await form.getByLabel(/^Overrides/).fill(JSON.stringify([{ stepId: 'welcome', blocks: { headline: VARIANT_HEADLINE } }]));
    await expect(form.getByTestId('preview-note')).toHaveCount(0);
    await form.getByRole('button', { name: 'Start experiment' }).click();
    const card = page.getByTestId('experiment');
    await expect(card).toHaveCount(1);
    await expect(card).toHaveAttribute('data-status', 'running');
    await expect(card.getByTestId('experiment-status')).toHaveText('Running');
    await expect(page.getByRole('form', { name: 'Start an experiment' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New experiment' })).toHaveCount(0);
  });

  test('results per arm, the analysis in words, and the too-little-data banner', async ({ page }) => {
    const N = 6;
    for (let i = 0; i < N; i++) {
      const res = await fetch(`${base()}/v1/public/flows/${clinic.embedKey}/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.ok, await res.clone().text()).toBe(true);
    }
    await signInAdmin(page, clinic);
    await page.goto(experimentsPath());
    const card = page.getByTestId('experiment');
    await expect(card.getByTestId('arm-results-chart').locator('svg.recharts-surface')).toBeVisible();
    const sessions = async (arm: string) => Number(await card.getByTestId(`arm-row-${arm}`).locator('td').first().innerText());
    expect((await sessions('control')) + (await sessions('variant'))).toBe(N);
    await expect(card.getByTestId('analysis-sentence')).toHaveText(/^The variant is (<1%|>99%|\d{1,2}%) likely to beat control; expected loss \d+\.\d pp; SRM check passed \(p = \d\.\d{3}\)\.$/);
    await expect(card.getByTestId('analysis-uplift')).toContainText('Relative uplift');
    await expect(card.getByTestId('warning-data')).toContainText('Too little data to decide: each arm needs at least 150 sessions');
    await expect(card.getByTestId('warning-srm')).toHaveCount(0);
    await noSeriousViolations(page, 'the running experiment');
  });

  test('stop with a winner, fold the variant in, then publish it at once from the editor', async ({ page }) => {
    await signInAdmin(page, clinic);
    await page.goto(experimentsPath());
    const card = page.getByTestId('experiment');
    await card.getByLabel('Winner').selectOption('variant');
    await card.getByRole('button', { name: 'Stop experiment' }).click();
    await expect(card).toHaveAttribute('data-status', 'stopped');
    await expect(card.getByTestId('experiment-winner')).toHaveText('Winner recorded: Variant.');
    await expect(page.getByRole('button', { name: 'New experiment' })).toBeVisible();

    await card.getByRole('button', { name: 'Fold the variant into the draft' }).click();
    await expect(card.getByTestId('folded-in')).toContainText('The variant was copied into the draft');
    await noSeriousViolations(page, 'the stopped, folded-in experiment');
    await card.getByRole('link', { name: 'Open the flow editor to publish it' }).click();
    await expect(page).toHaveURL(new RegExp(`/flows/${clinic.flowId}$`));
    await expect(page.getByTestId('theme-preview')).toContainText(VARIANT_HEADLINE);
    await expect(page.getByTestId('publish-outcome')).toContainText('Copy-only change: publishes at once');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByTestId('publish-result')).toContainText('Published: version 2 is live.');

    // The analytics page links here too.
    await page.goto(`/flows/${clinic.flowId}/analytics`);
    await page.getByRole('link', { name: /^Experiments/ }).click();
    await expect(page).toHaveURL(/\/experiments$/);
  });
});
