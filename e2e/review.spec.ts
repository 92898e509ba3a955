import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { api, signedInState } from './console-seed';
import { ops, PASSWORD } from './helpers';
import { seriousAxeProblems } from './axe';

/**
 * Issue 33, items 3 and 7: a provider reviews people, not ids. The review queue leads with each patient's
 * name, age and state at 1280 px and at 390 px (cards, no sideways scroll); the submission page shows the
 * person (date of birth and age, sex, state with the provider's licence, e-mail, BMI) and keeps Approve
 * disabled, with the reason in words, for a patient in a state the provider is not licensed in; and a
 * questionnaire change waiting for approval is marked word by word in <ins>/<del>.
 */

const KEY = 'glp1-review';
const doc = (protocolId: string, threshold: number) => ({
  key: KEY,
  title: 'GLP-1 review consultation',
  protocolId,
  items: [
    { linkId: 'dob', text: 'What is your date of birth?', type: 'date', required: true },
    { linkId: 'height', text: 'How tall are you?', type: 'integer', required: true, min: 36, max: 96, unit: 'in' },
    { linkId: 'weight', text: 'How much do you weigh?', type: 'decimal', required: true, min: 60, max: 800, unit: 'lb' },
  ],
  rules: [{ id: 'bmi_low', when: { q: 'bmi(height, weight)', op: 'lt', value: threshold }, effect: 'disqualify', patientMessage: `Medication is prescribed for a BMI of ${threshold} or more.` }],
});

interface World {
  key: string;
  providerEmail: string;
  adminEmail: string;
  ca: { id: string; submission: string };
  tx: { id: string; submission: string };
}

/** A clinic with an approved v1, a pending v2 (a stricter BMI threshold), and two submissions: one in CA, one in TX. */
async function seed(): Promise<World> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: `Review clinic ${stamp}` });
  const providerEmail = `reviewer-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Ines Okafor', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  // The version in use is approved by a second provider with two-factor, through the API.
  const adminEmail = `admin-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  const approverEmail = `approver-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: approverEmail, password: PASSWORD, role: 'provider', name: 'Dr. Approver', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: approverEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'review setup' });
  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide 0.25 mg', sku: 'SEMA-025', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', { name: 'Semaglutide starter', items: [{ productId: product.id, quantity: 1, sig: 'Inject 0.25 mg weekly', refills: 0 }] });
  const v1 = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', doc(protocol.id, 27));
  await api(login.accessToken, 'POST', `/intake/questionnaires/${v1.id}/approve`, {});
  const person = async (firstName: string, lastName: string, state: string) => {
    const p = await api<{ id: string }>(key, 'POST', '/patients', {
      firstName,
      lastName,
      dateOfBirth: '1985-04-12',
      sex: 'female',
      email: `${firstName.toLowerCase()}-${stamp}@patients.test`,
      address: { line1: '1 Main St', city: 'Town', state, postalCode: state === 'CA' ? '92101' : '73301' },
    });
    const s = await api<{ id: string }>(key, 'POST', '/intake/submissions', { questionnaireKey: KEY, patientId: p.id, answers: { dob: '1985-04-12', height: 66, weight: 220 } });
    return { id: p.id, submission: s.id };
  };
  const ca = await person('Maria', 'Alvarez', 'CA');
  const tx = await person('June', 'Carter', 'TX');
  await api(key, 'POST', '/intake/questionnaires', doc(protocol.id, 30));
  return { key, providerEmail, adminEmail, ca, tx };
}

/** How many times the CA patient's submission was read (the queue's `list` entries are not counted). */
const intakeReads = async (w: World) =>
  (await api<{ action: string }[]>(w.key, 'GET', `/patients/${w.ca.id}/access-log?limit=100`)).filter((e) => e.action === 'intake_read').length;

async function noSeriousViolations(page: Page, label: string) {
  await page.waitForLoadState('networkidle');
  expect.soft(await seriousAxeProblems(page), `axe on ${label}`).toEqual([]);
}

/** Nothing sticks out past the screen's right edge: no sideways page scroll, no clipped card. */
async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  for (const box of await page.getByTestId('submission-row').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().right))) expect(box).toBeLessThanOrEqual(width);
}

test.describe.serial('provider review shows the person', () => {
  let world: World;
  let state: BrowserContextOptions['storageState'];
  const open = async (browser: Browser, width: number) => {
    const context = await browser.newContext({ storageState: state, viewport: { width, height: 900 } });
    return { context, page: await context.newPage() };
  };

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    world = await seed();
    state = await signedInState(browser, world.providerEmail);
  });

  test('the review queue leads with names, age and state at 1280 px and at 390 px', async ({ browser }) => {
    for (const width of [1280, 390]) {
      const { context, page } = await open(browser, width);
      await page.goto('/intake/submissions');
      const maria = page.locator(`[data-testid="submission-row"][data-submission-id="${world.ca.submission}"]`);
      await expect(maria.getByTestId('submission-patient')).toHaveText('Maria Alvarez');
      await expect(maria.getByTestId('submission-patient-facts')).toHaveText(/^\d+ years · CA$/);
      const june = page.locator(`[data-testid="submission-row"][data-submission-id="${world.tx.submission}"]`);
      await expect(june.getByTestId('submission-patient')).toHaveText('June Carter');
      await expect(june.getByTestId('submission-patient-facts')).toHaveText(/^\d+ years · TX$/);
      // The ids stay, secondary and copyable.
      await expect(maria.getByRole('button', { name: `Copy ${world.ca.submission}` })).toBeVisible();
      await fitsWidth(page, width);
      await page.screenshot({ path: `test-results/review-queue-${width}.png`, fullPage: true });
      await context.close();
    }
  });

  test('the submission page shows the person; Approve is disabled with the reason for a state the provider is not licensed in', async ({ browser }) => {
    const { context, page } = await open(browser, 1280);
    await page.goto('/intake/submissions');
    await page.locator(`[data-testid="submission-row"][data-submission-id="${world.ca.submission}"]`).getByTestId('submission-patient').click();
    const person = page.getByTestId('person-panel');
    await expect(person.getByTestId('person-name')).toHaveText('Maria Alvarez');
    await expect(person.getByTestId('person-dob')).toHaveText(/^Apr 12, 1985 · \d+ years old when submitted$/);
    await expect(person.getByTestId('person-sex')).toHaveText('Female');
    await expect(person.getByTestId('person-state')).toContainText('CA');
    await expect(person.getByTestId('person-licence')).toHaveText('✓ You are licensed in CA');
    await expect(person.getByTestId('person-email')).toHaveText(/^maria-\d+@patients\.test$/);
    // 66 in and 220 lb: the pair the rule's bmi(height, weight) names.
    await expect(person.getByTestId('person-bmi')).toHaveText('35.5 (66 in, 220 lb)');
    await expect(page.getByTestId('submission-questionnaire')).toContainText('GLP-1 review consultation version 1');
    await noSeriousViolations(page, 'intake submission (CA)');
    // Showing the person is one PHI read per page view, in the patient's access log; a reload is a new view.
    expect(await intakeReads(world)).toBe(1);
    await page.reload();
    await expect(person.getByTestId('person-name')).toHaveText('Maria Alvarez');
    await page.waitForLoadState('networkidle');
    expect(await intakeReads(world)).toBe(2);

    await page.goto(`/intake/submissions/${world.tx.submission}`);
    await expect(page.getByTestId('person-licence')).toHaveText('✗ You are not licensed in TX');
    const approve = page.getByRole('button', { name: 'Approve', exact: true });
    await expect(approve).toBeDisabled();
    await expect(page.getByTestId('review-blocked-reason')).toHaveText('You are not licensed in TX, the patient’s state.');
    await expect(approve).toHaveAttribute('aria-describedby', await page.getByTestId('review-blocked-reason').getAttribute('id') ?? '');
    await page.screenshot({ path: 'test-results/review-submission-blocked.png', fullPage: true });
    await noSeriousViolations(page, 'intake submission (TX, blocked)');
    await context.close();
  });

  test('an admin opening a submission is told why they cannot decide, without asking the provider check (issue 34 item 11)', async ({ browser }) => {
    const context = await browser.newContext({ storageState: await signedInState(browser, world.adminEmail) });
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('auth.providerCheck')) asked.push(r.url());
    });
    const failed: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') failed.push(m.text());
    });
    await page.goto(`/intake/submissions/${world.ca.submission}`);
    await expect(page.getByTestId('review-blocked-reason')).toHaveText('Only a licensed provider signed in with their own account can do this.');
    await expect(page.getByRole('button', { name: 'Approve', exact: true })).toBeDisabled();
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);
    expect(failed.filter((t) => t.includes('403'))).toEqual([]);
    await context.close();
  });

  test('the pending questionnaire change is marked word by word', async ({ browser }) => {
    const { context, page } = await open(browser, 1280);
    await page.goto('/intake/questionnaires/pending');
    const changed = page.getByTestId('questionnaire-diff').locator('[data-testid="diff-rule"][data-kind="changed"]');
    await expect(changed.locator('del').first()).toHaveText('[removed: 27]');
    await expect(changed.locator('ins').first()).toHaveText('[added: 30]');
    // Only the threshold changed: the rest of the sentence is plain text, not marked.
    await expect(changed.locator('ins')).toHaveCount(2);
    await expect(changed).toContainText('Disqualify when BMI(height, weight) <');
    await page.screenshot({ path: 'test-results/review-questionnaire-word-diff.png', fullPage: true });
    await noSeriousViolations(page, 'questionnaires pending');
    await context.close();
  });
});
