import { freshTotp, wrongTotp } from '../tests/helpers/totp';
import { expect, test } from '@playwright/test';
import { clinicWithUser, newestMailTo, signInWithPassword, signOut } from './helpers';

test('password sign-in, MFA enrollment, password + TOTP sign-in, magic link + TOTP', async ({ page }) => {
  // Three codes of one secret: the third may have to wait up to 30 s for a new time step.
  test.setTimeout(120_000);
  const { email } = await clinicWithUser('Playwright Clinic', 'admin');

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId('tenant-name')).toHaveText('Playwright Clinic');
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link')).toHaveText(['Overview', 'Go live', 'Orders', 'Intake', 'Products', 'Questionnaires', 'Flows', 'Embed keys', 'Pharmacies', 'Routing', 'Patients', 'Patient notices', 'Webhooks', 'Events', 'API keys', 'Team', 'Usage', 'Billing', 'Account']);

  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByAltText('QR code for your authenticator app')).toBeVisible();
  const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
  await page.screenshot({ path: 'test-results/account-enroll.png', fullPage: true });
  await page.getByLabel('Code from the app').fill(await freshTotp(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
  await page.reload();
  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
  await page.screenshot({ path: 'test-results/account.png', fullPage: true });
  await signOut(page);

  // Password, then the code step (with a code not used before: each is good once).
  await signInWithPassword(page, email);
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await page.screenshot({ path: 'test-results/login-code.png', fullPage: true });
  await page.getByLabel('Authentication code').fill(wrongTotp(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('not valid');
  await page.getByLabel('Authentication code').fill(await freshTotp(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId('tenant-name')).toHaveText('Playwright Clinic');
  await signOut(page);

  await page.screenshot({ path: 'test-results/login.png', fullPage: true });
  await page.getByRole('button', { name: 'Sign in with an e-mail link' }).click();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByRole('status')).toContainText('sign-in link is on its way');
  await page.screenshot({ path: 'test-results/login-link.png', fullPage: true });
  const mail = newestMailTo(email);
  expect(mail.link).toContain('/login/magic?token=');
  await page.goto(mail.link);
  await page.getByLabel('Authentication code').fill(await freshTotp(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId('tenant-name')).toHaveText('Playwright Clinic');
  await signOut(page);

  // The link worked once.
  await page.goto(mail.link);
  await expect(page.getByRole('main').getByRole('alert')).toContainText('already used');
});

test('wrong password is refused with one message; console pages send visitors to sign in', async ({ page }) => {
  const { email } = await clinicWithUser('Refusal Clinic', 'developer');
  await signInWithPassword(page, email, 'not the password at all');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('The e-mail or password is incorrect.');
  for (const path of ['/console', '/account', '/webhooks', '/events']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
});

test.describe('before the page is hydrated', () => {
  test.use({ javaScriptEnabled: false });

  // Submitted by the browser alone, the form would go out as a GET with the password in the address.
  test('the sign-in button cannot be pressed, so typed credentials never reach a URL', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-mail').fill('someone@clinic.test');
    await page.getByLabel('Password').fill('correct horse battery staple');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeDisabled();
    await page.getByLabel('Password').press('Enter');
    await expect(page).toHaveURL(/\/login$/);
  });
});
