import { expect, test, type Page } from '@playwright/test';
import { base } from './helpers';
import { clinicWithFlow, expectAccessible, fillContact, FLOW_COPY, watchPage, type FlowClinic } from './flows-world';

/**
 * Issue 23 item 3: patients run a clinic's flow on its hosted page (/f/{embedKey}) on a phone-sized screen. The
 * first step is in the server's HTML; each page is accessible, keyboard-reachable and announces its errors;
 * a refresh mid-flow resumes where the patient was (the browser keeps the session id, never an answer); the
 * outcome is patient-safe; nothing is requested from another origin and the CSP is never violated.
 */

let clinic: FlowClinic;
let embedKey: string;

test.beforeAll(async () => {
  clinic = await clinicWithFlow('Harbor Weight Clinic');
  embedKey = await clinic.embedKey(['https://www.harbor-weight.example']);
});

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const next = (page: Page, name = 'Continue') => page.getByRole('button', { name, exact: true }).click();

async function answerUpToMedications(page: Page, pregnant: 'Yes' | 'No') {
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(heading(page, 'What brings you here?')).toBeFocused();
  await page.getByRole('group', { name: 'Main reason' }).getByLabel('Better health').check();
  await next(page);
  await expect(heading(page, 'About you')).toBeFocused();
  await page.getByLabel('Date of birth').fill('1984-06-02');
  await page.getByRole('group', { name: 'Are you pregnant or breastfeeding?' }).getByLabel(pregnant).check();
  await next(page);
  await expect(heading(page, 'Your medications')).toBeFocused();
}

async function consentAndContact(page: Page, email: string) {
  await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
  await page.getByLabel('I have read the text above and agree to it').check();
  await page.getByRole('button', { name: 'I agree, continue' }).click();
  await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
  await fillContact(page, { name: 'Dana Whitfield', email, dateOfBirth: '1984-06-02' });
  await next(page, 'See my result');
}

test('a patient completes the hosted flow at 390 px and may be eligible', async ({ page, request }) => {
  // Server-rendered: the first step is in the HTML before any script runs, under the per-key CSP.
  const html = await request.get(`/f/${embedKey}`);
  expect(html.status()).toBe(200);
  expect(await html.text()).toContain(FLOW_COPY.headline);
  const csp = html.headers()['content-security-policy'];
  expect(csp).toContain("frame-ancestors 'self' https://www.harbor-weight.example");
  expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);

  const watched = watchPage(page);
  const beacons: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/events')) beacons.push(JSON.parse(r.postData() ?? '{}').type);
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/f/${embedKey}`);
  await expect(heading(page, FLOW_COPY.headline)).toBeVisible();
  await expect(page).toHaveTitle(FLOW_COPY.headline);
  // The theme's tokens are CSS variables on the flow, and the accent follows them.
  const primary = await page.locator('main').evaluate((el) => getComputedStyle(el).getPropertyValue('--nl-flow-primary').trim());
  expect(primary).toBe('#0f766e');
  await expect(page.getByRole('button', { name: 'Start' })).toHaveCSS('background-color', 'rgb(15, 118, 110)');
  await expectAccessible(page, 'landing');

  await page.getByRole('button', { name: 'Start' }).click();
  await expect(heading(page, 'What brings you here?')).toBeFocused();
  await expect(page.getByText('Step 2 of 6')).toBeVisible();
  await expectAccessible(page, 'quiz');
  await page.getByRole('group', { name: 'Main reason' }).getByLabel('Better health').check();
  await next(page);

  await expect(heading(page, 'About you')).toBeFocused();
  await expectAccessible(page, 'medical 1');
  await page.getByLabel('Date of birth').fill('1984-06-02');
  await page.getByRole('group', { name: 'Are you pregnant or breastfeeding?' }).getByLabel('No').check();
  await next(page);

  // enableWhen on the page: the follow-up shows once the answer before it enables it.
  await expect(heading(page, 'Your medications')).toBeFocused();
  const meds = page.getByLabel('Which medications do you take?');
  await expect(meds).toHaveCount(0);
  await page.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('Yes').check();
  await expect(meds).toBeVisible();
  await next(page);
  const summary = page.getByRole('alert', { name: /problem/ });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Which medications do you take? – Answer this question.');
  await expect(meds).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'medical 2 with an error');
  await page.screenshot({ path: 'test-results/flow-hosted-error-390.png', fullPage: true });
  await summary.getByRole('link').click();
  await expect(meds).toBeFocused();
  await page.keyboard.type('Lisinopril');
  await next(page);

  // A refresh resumes on the step the patient reached; the browser holds the session id and the step, no answer.
  await expect(heading(page, 'Consent to a telehealth review')).toBeFocused();
  const stored = await page.evaluate(() => Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])));
  expect(Object.keys(stored)).toEqual([`fulfillmentrail:flow:${embedKey}`]);
  const point = JSON.parse(stored[`fulfillmentrail:flow:${embedKey}`]!);
  expect(Object.keys(point).sort()).toEqual(['sessionId', 'stepId']);
  expect(point.stepId).toBe('consent');
  expect(JSON.stringify(stored)).not.toMatch(/Lisinopril|1984|health/);
  await page.reload();
  await expect(heading(page, 'Consent to a telehealth review')).toBeVisible();
  await expect(page.getByText('Step 5 of 6')).toBeVisible();

  await page.getByRole('button', { name: 'I agree, continue' }).click();
  await expect(page.getByRole('alert', { name: /problem/ })).toBeFocused();
  await expectAccessible(page, 'consent with an error');
  await page.getByLabel('I have read the text above and agree to it').check();
  await page.getByRole('button', { name: 'I agree, continue' }).click();

  await expect(heading(page, 'Where can the clinic reach you?')).toBeFocused();
  await next(page, 'See my result');
  await expect(page.getByRole('alert', { name: /problem/ })).toBeFocused();
  await expectAccessible(page, 'contact with errors');
  await fillContact(page, { name: 'Dana Whitfield', email: `dana-${Date.now()}@example.org`, dateOfBirth: '1984-06-02' });
  await next(page, 'See my result');

  await expect(heading(page, FLOW_COPY.eligibleTitle)).toBeFocused();
  await expect(page.getByRole('status')).toContainText('A clinician will review your answers within one business day.');
  await expectAccessible(page, 'eligible outcome');
  await page.screenshot({ path: 'test-results/flow-hosted-eligible-390.png', fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // The finished run is shown again after a refresh, from the server's record of the session.
  await page.reload();
  await expect(heading(page, FLOW_COPY.eligibleTitle)).toBeVisible();

  expect(beacons).toContain('view');
  expect(beacons).toContain('step_viewed');
  expect(watched.outside).toEqual([]);
  expect(watched.violations).toEqual([]);
  const stats = await fetch(`${base()}/v1/flows/${clinic.flowId}/stats`, { headers: { authorization: `Bearer ${clinic.key}` } }).then((r) => r.json());
  expect(stats.qualified).toBeGreaterThanOrEqual(1);
});

test('another patient is told, kindly, that the clinic cannot help online', async ({ page }) => {
  const watched = watchPage(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/f/${embedKey}`);
  await answerUpToMedications(page, 'Yes');
  await page.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('No').check();
  await next(page);
  await consentAndContact(page, `sam-${Date.now()}@example.org`);

  await expect(heading(page, FLOW_COPY.disqualifiedTitle)).toBeFocused();
  const status = page.getByRole('status');
  await expect(status).toContainText('Please talk to your own doctor.');
  // Patient-safe: no rule id, no mention of the answer that decided it.
  await expect(status).not.toContainText('pregnan');
  await expectAccessible(page, 'disqualified outcome');
  expect(watched.outside).toEqual([]);
  expect(watched.violations).toEqual([]);
});

test('an unknown or revoked key is a 404 page', async ({ page }) => {
  const res = await page.goto(`/f/emb_${'0'.repeat(24)}`);
  expect(res?.status()).toBe(404);
  await expect(heading(page, 'This page is not available')).toBeVisible();
  await expectAccessible(page, '404');

  const revoked = await clinic.embedKey([]);
  await fetch(`${base()}/v1/embed-keys/${revoked}`, { method: 'DELETE', headers: { authorization: `Bearer ${clinic.key}` } });
  expect((await page.goto(`/f/${revoked}`))?.status()).toBe(404);
});
