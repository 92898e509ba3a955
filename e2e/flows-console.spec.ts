import { expect, test, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { api, base, ops, PASSWORD, signInWithPassword } from './helpers';
import { seriousAxeProblems } from './axe';

/**
 * Flows in the console: an admin creates a flow around an approved questionnaire, edits its copy and theme
 * (live preview), publishes (the first publication waits for a provider), republishes a copy-only change
 * at once, and makes a clinical change that waits; a provider reads the clinical diff and approves it. Then
 * an embed key with an origin and its snippet, the analytics charts, and axe on every new page.
 */

/** A public runtime call, as the hosted page makes it (sandbox: no origin needed). */
async function publicCall<T = unknown>(method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base()}/v1/public${pathname}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  expect(res.ok, `${method} ${pathname}: ${await res.clone().text()}`).toBe(true);
  return res.json() as Promise<T>;
}

const QKEY = 'weight-start';
const questionnaire = (protocolId: string) => ({
  key: QKEY,
  title: 'Weight management start',
  protocolId,
  items: [
    { linkId: 'dob', text: 'What is your date of birth?', type: 'date', required: true },
    { linkId: 'height', text: 'How tall are you?', type: 'integer', required: true, min: 36, max: 96, unit: 'in' },
    { linkId: 'weight', text: 'How much do you weigh?', type: 'decimal', required: true, min: 60, max: 800, unit: 'lb' },
  ],
  rules: [{ id: 'bmi_low', when: { q: 'bmi(height, weight)', op: 'lt', value: 27 }, effect: 'disqualify', patientMessage: 'Medication is prescribed for a BMI of 27 or more.' }],
});

interface Clinic {
  key: string;
  adminEmail: string;
  providerEmail: string;
  providerToken: string;
  mfaSecret: string;
}

async function setUpClinic(): Promise<Clinic> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Harbor Flows Clinic' });
  const adminEmail = `admin-${stamp}@clinic.test`;
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Nakamura', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e flows setup' });
  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: 'SEMA-025', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', { name: 'GLP-1 start', items: [{ productId: product.id, quantity: 4, sig: 'Inject 0.25 mg once weekly', refills: 2 }] });

  // The provider enrols in two-factor through the API and approves the questionnaire there.
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  const q = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', questionnaire(protocol.id));
  await api(login.accessToken, 'POST', `/intake/questionnaires/${q.id}/approve`, {});
  return { key, adminEmail, providerEmail, providerToken: login.accessToken, mfaSecret: enroll.secret };
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();

async function signInAdmin(page: Page, clinic: Clinic) {
  await signInWithPassword(page, clinic.adminEmail);
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
}

async function signInProvider(page: Page, clinic: Clinic) {
  await signInWithPassword(page, clinic.providerEmail);
  await page.getByLabel('Authentication code').fill(await freshTotp(clinic.mfaSecret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
}

async function noSeriousViolations(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  expect.soft(await seriousAxeProblems(page), `axe on ${path}`).toEqual([]);
}

const FLOW = 'Weight loss, made simple';

test.describe.serial('flows console', () => {
  let clinic: Clinic;
  let flowPath: string;
  let embedKey: string;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    clinic = await setUpClinic();
  });

  test('an admin creates a flow, edits its copy and theme, and the first publication waits for a provider', async ({ page }) => {
    await signInAdmin(page, clinic);
    await nav(page, 'Flows');
    const create = page.getByRole('form', { name: 'Create a flow' });
    await create.getByLabel('Flow name').fill(FLOW);
    await expect(create.getByLabel('Approved questionnaire')).toContainText('Weight management start (weight-start v1)');
    await create.getByRole('button', { name: 'Create flow' }).click();
    await expect(page).toHaveURL(/\/flows\/flw_[0-9a-z]+$/, { timeout: 15_000 });
    flowPath = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { level: 1, name: FLOW })).toBeVisible();

    // The starter steps: the clinical ones carry their badge.
    const steps = page.getByTestId('flow-step');
    await expect(steps).toHaveCount(5);
    for (const i of [1, 2, 3]) await expect(steps.nth(i).getByTestId('clinical-badge')).toHaveText('Clinical — needs provider approval');
    await expect(steps.nth(0).getByTestId('clinical-badge')).toHaveCount(0);

    // Copy, with the preview following as it is typed; a theme token reaches the preview as its CSS variable.
    const editor = page.getByTestId('step-editor');
    await editor.getByLabel('Headline').fill('Lose weight with a licensed provider');
    await expect(page.getByTestId('theme-preview')).toContainText('Lose weight with a licensed provider');
    await page.getByRole('textbox', { name: /^Primary colour --nl-flow-primary$/ }).fill('#1d4ed8');
    await expect.poll(() => page.getByTestId('theme-preview').evaluate((el) => getComputedStyle(el).getPropertyValue('--nl-flow-primary').trim())).toBe('#1d4ed8');

    // An emptied required field: the server's message and the step it names, nothing saved.
    await editor.getByLabel('Headline').fill('');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByTestId('save-error')).toContainText('Step 1 · Landing “welcome”');
    await expect(page.getByTestId('save-error-param')).toContainText('steps');
    await editor.getByLabel('Headline').fill('Lose weight with a licensed provider');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText('Draft saved')).toBeVisible();

    await expect(page.getByTestId('publish-outcome')).toHaveAttribute('data-kind', 'first');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByTestId('publish-result')).toContainText('Waiting for a provider: version 1 is pending approval');
    await expect(page.getByTestId('pending-approval')).toContainText('Version 1 waits for a provider’s approval');
    await expect(page.getByTestId('pending-approval')).toContainText('A provider with a verified NPI approves it from this page.');
  });

  test('after the provider approves v1, a copy-only change publishes at once', async ({ page }) => {
    const id = flowPath.split('/').pop()!;
    await api(clinic.providerToken, 'POST', `/flows/${id}/approve`, {});
    await signInAdmin(page, clinic);
    await page.goto(flowPath);
    await expect(page.getByTestId('pending-approval')).toHaveCount(0);
    await page.getByTestId('step-editor').getByLabel('Body').fill('Five minutes of questions. A provider reviews every answer.');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText('Draft saved')).toBeVisible();
    await expect(page.getByTestId('publish-outcome')).toContainText('Copy-only change: publishes at once');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByTestId('publish-result')).toContainText('Published: version 2 is live.');
    await expect(page.getByTestId('flow-versions').locator('tbody tr')).toHaveCount(2);
    await nav(page, 'Flows');
    await expect(page.getByTestId('flow-row').filter({ hasText: FLOW })).toContainText('Version 2');
  });

  test('a clinical change waits for a provider, who reads the diff and approves it', async ({ page, browser }) => {
    await signInAdmin(page, clinic);
    await page.goto(flowPath);
    await page.getByTestId('flow-step').nth(2).getByRole('button').first().click();
    const editor = page.getByTestId('step-editor');
    await expect(editor.getByTestId('clinical-badge')).toBeVisible();
    await editor.getByLabel('Consent text').fill('I agree to a telehealth assessment and to share my answers with the treating provider.');
    await editor.getByLabel('Consent version').fill('v2');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await expect(page.getByText('Draft saved')).toBeVisible();
    await expect(page.getByTestId('publish-outcome')).toContainText('Clinical change: needs a provider');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await expect(page.getByTestId('publish-result')).toContainText('version 3 is pending approval');

    const context = await browser.newContext();
    const provider = await context.newPage();
    await signInProvider(provider, clinic);
    await nav(provider, 'Flows');
    const row = provider.getByTestId('flow-row').filter({ hasText: FLOW });
    await expect(row).toContainText('Needs your approval');
    await row.getByRole('link', { name: FLOW, exact: true }).click();
    const pending = provider.getByTestId('pending-approval');
    await expect(pending).toContainText('Version 3 waits for a provider’s approval');
    const change = pending.getByTestId('clinical-change');
    await expect(change).toHaveCount(1);
    await expect(change).toContainText('Step consent: changed');
    // Word by word against the live text: the words added underlined in <ins>, the ones removed in <del>.
    await expect(change.locator('ins').filter({ hasText: 'assessment' })).toHaveCount(1);
    await expect(change.locator('del').filter({ hasText: 'licensed provider through' })).toHaveCount(1);
    await pending.getByRole('button', { name: /^Approve/ }).click();
    await provider.getByRole('dialog').getByRole('button', { name: 'Approve and publish' }).click();
    await expect(provider.getByTestId('approve-result')).toContainText('Approved: version 3 is live');
    await noSeriousViolations(provider, flowPath);
    await noSeriousViolations(provider, '/flows');
    await context.close();
  });

  test('an embed key for the flow with an origin, its snippet, and a bad origin refused by name', async ({ page }) => {
    await signInAdmin(page, clinic);
    await nav(page, 'Embed keys');
    const form = page.getByRole('form', { name: 'Create an embed key' });
    await form.getByLabel(/^Label/).fill('Clinic homepage');
    await form.getByLabel('Allowed origins').fill('https://clinic.example\nnot an origin');
    await form.getByLabel('Flow it serves').selectOption({ label: FLOW });
    await form.getByRole('button', { name: 'Create key' }).click();
    await expect(form.getByTestId('field-error')).toContainText('not an origin');
    await form.getByLabel('Allowed origins').fill('https://clinic.example');
    await form.getByRole('button', { name: 'Create key' }).click();

    const row = page.getByTestId('embed-key').filter({ hasText: 'Clinic homepage' });
    await expect(row.getByTestId('embed-key-origins')).toHaveText('https://clinic.example');
    const snippet = await row.getByTestId('embed-snippet').innerText();
    expect(snippet).toMatch(new RegExp(`^<script src="${base().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/embed/v1/flow\\.js" data-embed-key="emb_[0-9A-Za-z]{24}" async></script>$`));
    embedKey = /data-embed-key="(emb_[0-9A-Za-z]+)"/.exec(snippet)![1];

    // Origins change in place; the snippet stays the same.
    await row.getByRole('button', { name: /^Edit/ }).click();
    await row.getByLabel('Allowed origins').fill('https://clinic.example\nhttps://*.clinic.example');
    await row.getByRole('button', { name: 'Save changes' }).click();
    await expect(row.getByTestId('embed-key-origins')).toHaveText('https://clinic.example, https://*.clinic.example');

    // A second key, revoked.
    await form.getByLabel(/^Label/).fill('Old landing page');
    await form.getByLabel('Allowed origins').fill('https://old.clinic.example');
    await form.getByRole('button', { name: 'Create key' }).click();
    const old = page.getByTestId('embed-key').filter({ hasText: 'Old landing page' });
    await old.getByRole('button', { name: /^Revoke/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(old).toContainText('revoked');
    await expect(old.getByTestId('embed-snippet')).toHaveCount(0);
  });

  test('analytics: the funnel by step, qualify rate over time, views and sessions', async ({ page }) => {
    // One patient opens the flow and passes the landing page (counts only; no answers involved).
    const session = await publicCall<{ sessionId: string }>('POST', `/flows/${embedKey}/sessions`, {});
    await publicCall('POST', `/flows/${embedKey}/sessions/${session.sessionId}/events`, { type: 'view' });
    await publicCall('POST', `/flows/${embedKey}/sessions/${session.sessionId}/steps`, { stepId: 'welcome', answers: {} });

    await signInAdmin(page, clinic);
    await page.goto(flowPath);
    await page.getByRole('link', { name: 'Analytics', exact: true }).click();
    await expect(page).toHaveURL(/\/analytics$/);
    const tiles = page.getByTestId('flow-stat-tiles');
    await expect(tiles).toContainText('Views1');
    await expect(tiles).toContainText('Sessions1');
    for (const chart of ['funnel-chart', 'qualify-rate-chart', 'views-sessions-chart']) {
      // The chart's own surface, not the legend's icons (also recharts surfaces).
      await expect(page.getByTestId(chart).locator('svg.recharts-surface:not([aria-label$="legend icon"])')).toBeVisible();
    }
    await expect(page.getByRole('figure', { name: 'Funnel by step' })).toContainText('1 views');
    await page.getByLabel('Range').selectOption('7');
    await expect(page.getByTestId('funnel-chart').locator('svg.recharts-surface:not([aria-label$="legend icon"])')).toBeVisible();
  });

  test('the new pages have no serious or critical axe violations', async ({ page }) => {
    await signInAdmin(page, clinic);
    for (const path of ['/flows', flowPath, `${flowPath}/analytics`, '/embed-keys']) await noSeriousViolations(page, path);
  });
});
