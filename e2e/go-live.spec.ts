import { expect, test, type Browser, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { seriousAxeProblems } from './axe';
import { api } from './console-seed';
import { ops, PASSWORD, signInWithPassword } from './helpers';
import { TOPIC_LANDING } from '../server/domain/flows/shared/topic-landing';

/**
 * Issue 50, item 2: a new clinic's first live flow, in the console alone. The admin of a clinic that has
 * nothing switches to live, opens "Go live" and follows the checklist: a product, a pharmacy with an
 * approved catalog, the routing policy, a protocol, a questionnaire (a provider approves it), a flow whose
 * protocol is chosen in the editor (publishing without one says what is missing, with a link to the field;
 * a provider approves the flow), and an embed key with the clinic's origin. Each step turns done on the
 * checklist as it is done; at the end the checklist shows the hosted page's address, which serves the flow.
 * Only the clinic and its two people are made through the ops API (a provider's NPI is verified by ops, and
 * enrols in two-factor through the API, as in the other specs). Axe and the page width at 1280 and 390 px.
 */

const STEPS = ['product', 'pharmacy', 'routing', 'protocol', 'questionnaire', 'flow', 'embedKey'] as const;
const FLOW = 'Weight care, live';
const QKEY = 'weight-care';
const ORIGIN = 'https://www.harbor-weight.example';

interface Clinic {
  adminEmail: string;
  providerEmail: string;
  mfaSecret: string;
}

async function newClinic(): Promise<Clinic> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Harbor Weight Clinic' });
  const adminEmail = `admin-${stamp}@golive.test`;
  const providerEmail = `provider-${stamp}@golive.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Amara Lindqvist', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  return { adminEmail, providerEmail, mfaSecret: enroll.secret };
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();
const stepItem = (page: Page, id: string) => page.locator(`[data-testid="go-live-step"][data-step="${id}"]`);

async function goLive(page: Page) {
  await nav(page, 'Go live');
  await expect(page.getByRole('heading', { level: 1, name: 'Go live' })).toBeVisible();
}

/** The checklist as it stands: exactly `done` are done, and the step after them is marked next. */
async function expectDone(page: Page, done: readonly (typeof STEPS)[number][]) {
  for (const id of STEPS) await expect(stepItem(page, id), id).toHaveAttribute('data-done', done.includes(id) ? 'true' : 'false');
  await expect(page.getByTestId('go-live-progress')).toContainText(`${done.length} of 7 steps done`);
  const next = STEPS.find((s) => !done.includes(s));
  if (next) await expect(stepItem(page, next).getByTestId('go-live-state')).toHaveText('Next');
}

/** Follows a step's link from the checklist. */
async function follow(page: Page, id: string, action: string) {
  await stepItem(page, id).getByRole('link', { name: new RegExp(`^${action}`) }).click();
}

/** No serious axe violation and nothing wider than the page, at desktop and phone width. */
async function checkPage(page: Page, what: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForLoadState('networkidle');
    expect.soft(await seriousAxeProblems(page), `axe on ${what} at ${width}px`).toEqual([]);
    const overflow = await page.locator('main').evaluate((main) => main.scrollWidth - main.clientWidth);
    expect.soft(overflow, `${what} wider than the page at ${width}px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function switchToLive(page: Page) {
  await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Live' }).click();
  await expect(page.getByTestId('mode-banner')).toContainText('Live mode');
}

/** A provider signs in (two-factor), switches to live, and approves what waits at `path`. */
async function asProvider(browser: Browser, clinic: Clinic, approve: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signInWithPassword(page, clinic.providerEmail);
  await page.getByLabel('Authentication code').fill(await freshTotp(clinic.mfaSecret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
  await switchToLive(page);
  await approve(page);
  await context.close();
}

test('a new clinic’s admin follows the go-live checklist in live mode to a published flow and its hosted page', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const clinic = await newClinic();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWithPassword(page, clinic.adminEmail);
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
  await switchToLive(page);

  // An empty live mode: nothing done, the product first.
  await goLive(page);
  await expectDone(page, []);
  await expect(stepItem(page, 'embedKey')).toContainText('Comes after a published flow');
  await checkPage(page, 'go live (empty)');
  await page.screenshot({ path: 'test-results/go-live-empty.png', fullPage: true });

  // 1. A product.
  await follow(page, 'product', 'Go to Products');
  await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
  await page.getByLabel('Product name').fill('Semaglutide');
  await page.getByLabel('SKU').fill('SEMA-LIVE-025');
  await page.getByLabel('Form').selectOption('injection');
  await page.getByLabel('Strength').fill('0.25 mg');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByTestId('product-row').filter({ hasText: 'SEMA-LIVE-025' })).toBeVisible();
  await goLive(page);
  await expectDone(page, ['product']);

  // 2. A pharmacy (the simulated one: the checklist warns it is not a real pharmacy) and its approved catalog.
  await follow(page, 'pharmacy', 'Go to Pharmacies');
  await page.getByLabel('Pharmacy name').fill('Harbor Compounding');
  await page.getByLabel('States shipped to').fill('CA');
  await page.getByRole('button', { name: 'Connect pharmacy' }).click();
  const pharmacy = page.getByTestId('pharmacy-row').filter({ hasText: 'Harbor Compounding' });
  await expect(pharmacy).toBeVisible();
  await goLive(page);
  await expect(stepItem(page, 'pharmacy').getByTestId('go-live-text')).toHaveText('“Harbor Compounding” has no catalog yet: upload its price list (CSV) and approve it.');
  await follow(page, 'pharmacy', 'Go to Pharmacies');
  await pharmacy.getByLabel('Catalog CSV', { exact: true }).fill('sku,item_code,price_cents,stock,eta_days\nSEMA-LIVE-025,HC-1,12900,40,3');
  await pharmacy.getByRole('button', { name: 'Upload catalog' }).click();
  const catalog = pharmacy.getByTestId('catalog-row');
  await expect(catalog.getByTestId('catalog-status')).toHaveText('pending');
  await catalog.getByRole('button', { name: 'Approve' }).click();
  await expect(catalog.getByTestId('catalog-status')).toHaveText('approved');
  await goLive(page);
  await expectDone(page, ['product', 'pharmacy']);
  await expect(stepItem(page, 'pharmacy').getByTestId('go-live-caution')).toContainText('This is a simulated pharmacy');

  // 3. The routing policy, reviewed and saved.
  await follow(page, 'routing', 'Go to Routing');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByTestId('routing-policy-status')).toContainText('Routing policy saved');
  await goLive(page);
  await expectDone(page, ['product', 'pharmacy', 'routing']);

  // 4. A protocol (the link lands on the Products page's protocols).
  await follow(page, 'protocol', 'Go to Protocols');
  await expect(page).toHaveURL(/\/products#protocols$/);
  await page.getByLabel('Protocol name').fill('Semaglutide starter');
  await page.getByLabel('Item 1 product').selectOption({ label: 'Semaglutide 0.25 mg (SEMA-LIVE-025)' });
  await page.getByLabel('Item 1 quantity').fill('4');
  await page.getByLabel('Item 1 sig').fill('Inject 0.25 mg once weekly');
  await page.getByRole('button', { name: 'Create protocol' }).click();
  await expect(page.getByTestId('protocol-row').filter({ hasText: 'Semaglutide starter' })).toBeVisible();
  await goLive(page);
  await expectDone(page, ['product', 'pharmacy', 'routing', 'protocol']);

  // 5. A questionnaire, written in the builder and published without a protocol; a provider approves it.
  await follow(page, 'questionnaire', 'Write a questionnaire');
  await expect(page.getByRole('heading', { level: 1, name: 'New questionnaire' })).toBeVisible();
  await page.getByLabel('Title', { exact: true }).fill('Weight care consultation');
  await page.getByLabel('Key', { exact: true }).fill(QKEY);
  const question = page.getByTestId('builder-item').first();
  await question.getByLabel('Question', { exact: true }).fill('Are you pregnant or breastfeeding?');
  await question.getByLabel('Answer id').fill('pregnant');
  await expect(page.getByTestId('builder-check-state')).toHaveText(`No problems: publishing makes version 1 of ${QKEY}.`, { timeout: 15_000 });
  await page.getByRole('button', { name: 'Publish for a provider’s approval' }).click();
  await expect(page.getByTestId('builder-published')).toContainText(`Published version 1 of ${QKEY} for approval`);
  await goLive(page);
  await expect(stepItem(page, 'questionnaire').getByTestId('go-live-text')).toHaveText(`“Weight care consultation” (${QKEY} v1) waits for a provider’s approval.`);
  await expectDone(page, ['product', 'pharmacy', 'routing', 'protocol']);

  await asProvider(browser, clinic, async (dr) => {
    await dr.goto('/intake/questionnaires/pending');
    const pending = dr.getByTestId('pending-questionnaire').filter({ hasText: 'Weight care consultation' });
    await pending.getByRole('button', { name: /^Approve/ }).click();
    await dr.getByRole('dialog').getByRole('button', { name: 'Approve questionnaire' }).click();
    await expect(dr.getByTestId('questionnaire-approved')).toContainText(`Approved: version 1 of ${QKEY}`);
  });
  await page.reload();
  await expectDone(page, ['product', 'pharmacy', 'routing', 'protocol', 'questionnaire']);

  // 6. A flow: created around the questionnaire; publishing without a protocol says what is missing and
  //    links to the setting; the protocol chosen in the editor; a provider approves the clinical steps.
  await follow(page, 'flow', 'Go to Flows');
  const create = page.getByRole('form', { name: 'Create a flow' });
  await create.getByLabel('Flow name').fill(FLOW);
  await expect(create.getByLabel('Approved questionnaire')).toContainText(`Weight care consultation (${QKEY} v1)`);
  await create.getByRole('button', { name: 'Create flow' }).click();
  await expect(page).toHaveURL(/\/flows\/flw_[0-9a-z]+$/, { timeout: 15_000 });
  const flowPath = new URL(page.url()).pathname;
  const protocol = page.getByLabel('Protocol', { exact: true });
  await expect(protocol).toHaveValue('');
  await expect(page.getByTestId('protocol-missing')).toContainText(`questionnaire ${QKEY} names no protocol`);

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  const refusal = page.getByTestId('publish-error');
  await expect(refusal).toHaveAttribute('data-code', 'protocol_required');
  await expect(refusal.getByTestId('publish-error-text')).toHaveText('Choose the protocol this flow prescribes (Settings → Protocol): it is what a provider’s approval of a patient orders.');
  await expect(refusal.getByRole('link', { name: 'Create a protocol' })).toHaveAttribute('href', '/products#protocols');
  await checkPage(page, 'flow editor with the refusal');
  await page.screenshot({ path: 'test-results/go-live-publish-refused.png', fullPage: true });
  await refusal.getByRole('link', { name: 'Settings → Protocol' }).click();
  await expect(protocol).toBeFocused();

  await protocol.selectOption({ label: 'Semaglutide starter' });
  await expect(page.getByTestId('protocol-items')).toHaveText('Semaglutide × 4 · Inject 0.25 mg once weekly · 0 refills');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('Draft saved')).toBeVisible();
  await expect(refusal).toHaveCount(0);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByTestId('publish-result')).toContainText('Waiting for a provider: version 1 is pending approval');
  await goLive(page);
  await expect(stepItem(page, 'flow').getByTestId('go-live-text')).toHaveText(`“${FLOW}” waits for a provider’s approval of its clinical steps.`);
  await expectDone(page, ['product', 'pharmacy', 'routing', 'protocol', 'questionnaire']);

  await asProvider(browser, clinic, async (dr) => {
    await dr.goto(flowPath);
    const pending = dr.getByTestId('pending-approval');
    await pending.getByRole('button', { name: /^Approve/ }).click();
    await dr.getByRole('dialog').getByRole('button', { name: 'Approve and publish' }).click();
    await expect(dr.getByTestId('approve-result')).toContainText('Approved: version 1 is live');
  });
  await page.reload();
  await expectDone(page, ['product', 'pharmacy', 'routing', 'protocol', 'questionnaire', 'flow']);
  await expect(stepItem(page, 'flow').getByTestId('go-live-text')).toHaveText(`“${FLOW}” is published (version 1).`);

  // 7. An embed key for the flow (preset by the link) with the clinic's origin.
  await follow(page, 'embedKey', 'Go to Embed keys');
  const form = page.getByRole('form', { name: 'Create an embed key' });
  await expect(form.getByLabel('Flow it serves')).toHaveValue(flowPath.split('/').pop()!);
  await form.getByLabel(/^Label/).fill('Clinic homepage');
  await form.getByLabel('Allowed origins').fill(ORIGIN);
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('embed-key').filter({ hasText: 'Clinic homepage' }).getByTestId('embed-key-origins')).toHaveText(ORIGIN);

  // Every step done: the hosted page's address, which serves the flow live.
  await goLive(page);
  await expectDone(page, [...STEPS]);
  const complete = page.getByTestId('go-live-complete');
  await expect(complete).toContainText('Live: patients can start the flow now.');
  const hosted = await complete.getByTestId('go-live-hosted-url').innerText();
  expect(hosted).toMatch(/\/f\/emb_[0-9A-Za-z]{24}$/);
  await checkPage(page, 'go live (complete)');
  await page.screenshot({ path: 'test-results/go-live-complete.png', fullPage: true });

  // The hosted page opens with the patient-facing headline of the questionnaire's topic, never the flow's internal name.
  await page.goto(hosted);
  await expect(page.getByRole('heading', { level: 1, name: TOPIC_LANDING.weight.headline })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: FLOW })).toHaveCount(0);
});
