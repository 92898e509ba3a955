import { expect, test, type Page } from '@playwright/test';
import { ops, PASSWORD, signInWithPassword } from './helpers';
import { api, clinicWithFlow, expectAccessible, fillContact, FLOW_COPY, type FlowClinic } from './flows-world';

/**
 * Issue 33 item 5: the end of a hosted flow on a phone. The clinic's outcome copy once (not the service's
 * generic sentence beside it), the button the clinic configured, a short reference the patient can quote,
 * and what happens next; axe clean at 390 px. Staff then find the submission by that reference in the console.
 */

const BODY = 'A clinician will review your answers within one business day.';
const GENERIC = 'A provider will review your answers and contact you about the next steps.';
const NEXT_URL = 'https://www.harbor-weight.example/what-next';

let clinic: FlowClinic;
let embedKey: string;
let adminEmail: string;

test.beforeAll(async () => {
  clinic = await clinicWithFlow('Outcome Weight Clinic');
  // The clinic's button: a copy change of the outcome page (presentation plane), published without a new approval.
  await api(clinic.key, 'PATCH', `/flows/${clinic.flowId}`, { stepPatches: [{ stepId: 'result', blocks: { cta: 'What to expect', ctaUrl: NEXT_URL } }] });
  const published = await api<{ status: string }>(clinic.key, 'POST', `/flows/${clinic.flowId}/publish`, {});
  expect(published.status).toBe('published');
  embedKey = await clinic.embedKey(['https://www.harbor-weight.example']);
  adminEmail = `admin-${Date.now()}@outcome.test`;
  await ops(`/ops/tenants/${clinic.tenantId}/users`, { email: adminEmail, password: PASSWORD, role: 'admin', name: 'Ari Admin' });
});

const heading = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const next = (page: Page, name = 'Continue') => page.getByRole('button', { name, exact: true }).click();

test('the hosted outcome page: copy once, the button, the reference, what happens next; staff find it by the reference', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/f/${embedKey}`);
  await page.getByRole('button', { name: 'Start' }).click();
  await page.getByRole('group', { name: 'Main reason' }).getByLabel('Better health').check();
  await next(page);
  await page.getByLabel('Date of birth').fill('1984-06-02');
  await page.getByRole('group', { name: 'Are you pregnant or breastfeeding?' }).getByLabel('No').check();
  await next(page);
  await page.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('No').check();
  await next(page);
  await page.getByLabel('I have read the text above and agree to it').check();
  await page.getByRole('button', { name: 'I agree, continue' }).click();
  await fillContact(page, { name: 'Dana Whitfield', email: `dana-${Date.now()}@example.org`, dateOfBirth: '1984-06-02' });
  await next(page, 'See my result');

  await expect(heading(page, FLOW_COPY.eligibleTitle)).toBeFocused();
  const main = page.locator('main');
  // The clinic's copy exactly once, and not the generic sentence that says it again.
  await expect(main.getByText(BODY, { exact: true })).toHaveCount(1);
  await expect(main).not.toContainText(GENERIC);
  const button = page.getByRole('link', { name: 'What to expect' });
  await expect(button).toHaveAttribute('href', NEXT_URL);
  const reference = (await page.getByTestId('outcome-reference').locator('p.font-mono').textContent())?.trim() ?? '';
  expect(reference).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
  await expect(page.getByRole('heading', { level: 2, name: 'What happens next' })).toBeVisible();
  await expect(page.getByRole('list').filter({ hasText: 'A licensed provider reviews your answers' })).toBeVisible();
  await expectAccessible(page, 'eligible outcome at 390 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: 'test-results/outcome-eligible-390.png', fullPage: true });

  // A refresh shows the same page from the server's record, reference included.
  await page.reload();
  await expect(page.getByTestId('outcome-reference')).toContainText(reference);

  // Staff: the reference as read out on the phone finds the submission in the console (live mode).
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInWithPassword(page, adminEmail);
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
  const live = page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Live' });
  await live.click();
  await expect(live).toHaveAttribute('aria-pressed', 'true');
  await page.goto('/intake/submissions');
  const finder = page.getByRole('region', { name: 'Find by patient reference' });
  await finder.getByLabel('Reference').fill(reference.toLowerCase().replace('-', ' '));
  await finder.getByRole('button', { name: 'Find' }).click();
  await finder.getByRole('link', { name: reference }).click();
  await expect(page).toHaveURL(/\/intake\/submissions\/isub_/);
  await expect(page.getByTestId('submission-reference')).toHaveText(reference);
});
