import { expect, test, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { api, base, newestMailTo, ops, PASSWORD } from './helpers';
import { seriousAxeProblems } from './axe';

/**
 * A patient completes a one-time intake link (/i/{token}) on a phone-sized screen: a question appears when an
 * earlier answer enables it, a missing answer is announced and focused, the outcome is patient-safe, the page
 * has no serious accessibility violation and talks to no one but this service, and the spent link is a 404.
 */

const DOCUMENT = {
  key: 'refill-check',
  title: 'Refill check-in',
  description: 'A few questions before your next refill.',
  items: [
    { linkId: 'dob', text: 'Date of birth', type: 'date', required: true },
    { linkId: 'pregnant', text: 'Are you pregnant or breastfeeding?', type: 'boolean', required: true },
    { linkId: 'takesMeds', text: 'Do you take any other medication?', type: 'boolean', required: true },
    { linkId: 'meds', text: 'Which medications do you take?', type: 'text', required: true, enableWhen: { q: 'takesMeds', op: 'eq', value: true } },
    { linkId: 'goal', text: 'What matters most to you?', type: 'choice', required: false, options: [{ value: 'price', label: 'Price' }, { value: 'speed', label: 'Speed' }] },
  ],
  rules: [{ id: 'pregnancy', when: { q: 'pregnant', op: 'eq', value: true }, effect: 'disqualify', patientMessage: 'Please talk to your doctor in person first.' }],
};

/** A clinic with an approved questionnaire and a patient, and the link mailed to that patient. */
async function mailedLink(): Promise<string> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Lakeside Health' });
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Reyes', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e intake setup' });
  const published = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', DOCUMENT);
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  await api(login.accessToken, 'POST', `/intake/questionnaires/${published.id}/approve`, {});
  const email = `patient-${stamp}@example.org`;
  const patient = await api<{ id: string }>(key, 'POST', '/patients', { firstName: 'Maria', lastName: 'Alvarez', dateOfBirth: '1985-04-12', sex: 'female', email });
  const link = await api<{ url: string }>(key, 'POST', '/intake/hosted-links', { patientId: patient.id, questionnaireKey: DOCUMENT.key });
  const mail = newestMailTo(email);
  expect(mail.link).toBe(link.url);
  return new URL(link.url).pathname;
}

async function expectAccessible(page: Page) {
  expect(await seriousAxeProblems(page)).toEqual([]);
}

test('a patient completes a hosted intake link at 390 px', async ({ page }) => {
  const path = await mailedLink();
  const outside: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).origin !== new URL(base()).origin) outside.push(r.url());
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Refill check-in' })).toBeVisible();
  await expect(page.getByText('Lakeside Health')).toBeVisible();
  await expectAccessible(page);

  // The follow-up question shows only once the answer before it enables it.
  const meds = page.getByLabel('Which medications do you take?');
  await expect(meds).toHaveCount(0);
  await page.getByLabel('Date of birth').fill('1985-04-12');
  await page.getByRole('group', { name: 'Are you pregnant or breastfeeding?' }).getByLabel('No').check();
  await page.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('Yes').check();
  await expect(meds).toBeVisible();

  // Sent without it: the summary takes the focus, announces the problem and points at the question.
  await page.getByRole('button', { name: 'Send my answers' }).click();
  const summary = page.getByRole('alert', { name: /problem/ });
  await expect(summary).toBeFocused();
  await expect(summary).toContainText('Which medications do you take? – Answer this question.');
  await expect(meds).toHaveAttribute('aria-invalid', 'true');
  await expect(meds).toHaveAccessibleDescription(/Answer this question/);
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/intake-hosted-error-390.png', fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // Keyboard: the summary's link moves to the question.
  await summary.getByRole('link').click();
  await expect(meds).toBeFocused();
  await page.keyboard.type('Lisinopril');
  await page.getByRole('button', { name: 'Send my answers' }).click();

  await expect(page.getByRole('heading', { level: 1, name: 'Thank you, your answers were sent' })).toBeFocused();
  // Issue 33 item 5: the reference to quote and what happens next, the service's sentence not said twice.
  await expect(page.getByRole('status')).toContainText(/Your reference[0-9A-Z]{4}-[0-9A-Z]{4}/);
  await expect(page.getByRole('heading', { level: 2, name: 'What happens next' })).toBeVisible();
  await expect(page.getByRole('list')).toContainText('A licensed provider reviews your answers');
  await expectAccessible(page);
  await page.screenshot({ path: 'test-results/intake-hosted-outcome-390.png', fullPage: true });
  expect(outside).toEqual([]);

  // The link is spent: the same address is now a friendly 404.
  const again = await page.goto(path);
  expect(again?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'This link is no longer valid' })).toBeVisible();
  await expectAccessible(page);
});
