import { expect, test, type Locator, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { api } from './console-seed';
import { ops, PASSWORD, signInWithPassword } from './helpers';

/**
 * Issue 33, item 9: an admin builds a questionnaire in the console (a question shown only on an earlier
 * answer, a disqualifying rule), sees a problem beside the question it concerns and fixes it, previews the
 * form as a patient and gets the engine's verdict, publishes it; a provider then approves it on the pending
 * page. The clinic and its people are set up through the API.
 */

const KEY = 'hair-loss-start';

async function setUp() {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Builder Clinic' });
  const adminEmail = `admin-${stamp}@clinic.test`;
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Imani Reyes', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  return { adminEmail, providerEmail, mfaSecret: enroll.secret };
}

const question = (page: Page, n: number) => page.getByTestId('builder-item').nth(n - 1);

async function writeQuestion(q: Locator, text: string, linkId: string) {
  await q.getByLabel('Question', { exact: true }).fill(text);
  await q.getByLabel('Answer id').fill(linkId);
}

test('an admin builds, previews and publishes a questionnaire; a provider approves it', async ({ browser }) => {
  test.setTimeout(180_000);
  const clinic = await setUp();

  const admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await admin.newPage();
  await signInWithPassword(page, clinic.adminEmail);
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
  await page.goto('/intake/questionnaires');
  await page.getByRole('navigation', { name: 'Questionnaire views' }).getByRole('link', { name: 'New questionnaire' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New questionnaire' })).toBeVisible();

  await page.getByLabel('Title', { exact: true }).fill('Hair loss consultation');
  await page.getByLabel('Key', { exact: true }).fill(KEY);
  await writeQuestion(question(page, 1), 'Are you pregnant or breastfeeding?', 'pregnant');
  await page.getByRole('button', { name: 'Add a question' }).click();
  // A second question with the first one's answer id: the validator's problem shows beside it.
  await writeQuestion(question(page, 2), 'Do you take any medication?', 'pregnant');
  await expect(question(page, 2).getByTestId('builder-problem')).toContainText('already uses the id "pregnant"', { timeout: 15_000 });
  await expect(question(page, 1).getByTestId('builder-problem')).toHaveCount(0);
  await expect(page.getByTestId('builder-check-state')).toHaveText('1 problem to fix before publishing.');
  await question(page, 2).getByLabel('Answer id').fill('takesMeds');

  await page.getByRole('button', { name: 'Add a question' }).click();
  const meds = question(page, 3);
  await writeQuestion(meds, 'Which medications do you take?', 'meds');
  await meds.getByLabel('Answer type').selectOption({ label: 'long text' });
  await meds.getByLabel('Show this question only when earlier answers match').check();
  const shownWhen = meds.getByTestId('condition-row');
  await shownWhen.getByLabel('Question', { exact: true }).selectOption({ label: 'takesMeds – Do you take any medication?' });
  await shownWhen.getByLabel('Value').selectOption({ label: 'Yes' });

  await page.getByRole('button', { name: 'Add a rule' }).click();
  const rule = page.getByTestId('builder-rule').first();
  await rule.getByLabel('Rule id').fill('pregnancy');
  await expect(rule.getByLabel('Effect')).toHaveValue('disqualify');
  await rule.getByLabel('What the patient is told').fill('This treatment must not be used during pregnancy or breastfeeding.');
  const when = rule.getByTestId('condition-row');
  await when.getByLabel('Question', { exact: true }).selectOption({ label: 'pregnant – Are you pregnant or breastfeeding?' });
  await when.getByLabel('Value').selectOption({ label: 'Yes' });
  await expect(page.getByTestId('builder-check-state')).toHaveText(`No problems: publishing makes version 1 of ${KEY}.`, { timeout: 15_000 });

  // The preview: the patient's form, the condition live, and the engine's verdict.
  await page.getByRole('button', { name: 'Preview as a patient' }).click();
  const preview = page.getByTestId('builder-preview');
  await expect(preview.getByLabel(/Which medications do you take/)).toHaveCount(0);
  await preview.getByRole('group', { name: /Do you take any medication/ }).getByLabel('Yes').check();
  await expect(preview.getByLabel(/Which medications do you take/)).toBeVisible();
  await preview.getByLabel(/Which medications do you take/).fill('Finasteride');
  await preview.getByRole('group', { name: /Are you pregnant or breastfeeding/ }).getByLabel('Yes').check();
  await preview.getByRole('button', { name: 'See the outcome' }).click();
  await expect(page.getByTestId('preview-outcome')).toContainText('Disqualified');
  await expect(page.getByTestId('preview-outcome')).toContainText('The patient is told: “This treatment must not be used during pregnancy or breastfeeding.”');
  await page.screenshot({ path: 'test-results/questionnaire-builder-preview.png', fullPage: true });

  await page.getByRole('button', { name: 'Publish for a provider’s approval' }).click();
  await expect(page.getByTestId('builder-published')).toContainText(`Published version 1 of ${KEY} for approval`);
  await admin.close();

  // The provider approves it on the pending page (a first version: everything in it is new).
  const provider = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const dr = await provider.newPage();
  await signInWithPassword(dr, clinic.providerEmail);
  await dr.getByLabel('Authentication code').fill(await freshTotp(clinic.mfaSecret));
  await dr.getByRole('button', { name: 'Verify' }).click();
  await expect(dr).toHaveURL(/\/console$/, { timeout: 30_000 });
  await dr.goto('/intake/questionnaires/pending');
  const pending = dr.getByTestId('pending-questionnaire').filter({ hasText: 'Hair loss consultation' });
  await expect(pending).toContainText('No version of this questionnaire is in use yet');
  await expect(pending.getByTestId('preview-item').nth(2)).toContainText('shown only when “Do you take any medication?” is yes');
  await expect(pending.getByTestId('preview-rule')).toContainText('Disqualify when “Are you pregnant or breastfeeding?” is yes');
  await pending.getByRole('button', { name: /^Approve/ }).click();
  await dr.getByRole('dialog').getByRole('button', { name: 'Approve questionnaire' }).click();
  await expect(dr.getByTestId('questionnaire-approved')).toContainText(`Approved: version 1 of ${KEY}`);
  await provider.close();
});
