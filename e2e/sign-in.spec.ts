import { authenticator } from 'otplib';
import { expect, test } from '@playwright/test';
import { newestMailTo, ops, signInWithPassword, signOut } from './helpers';

test('password sign-in, MFA enrollment, TOTP sign-in and magic link', async ({ page }) => {
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Playwright Clinic' });
  const email = `admin-${Date.now()}@clinic.test`;
  const password = 'correct horse battery staple';
  await ops(`/ops/tenants/${tenant.id}/users`, { email, password, role: 'admin' });

  await signInWithPassword(page, email, password);
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId('tenant-name')).toHaveText('Playwright Clinic');

  await page.getByRole('link', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
  await expect(page.getByAltText('QR code for your authenticator app')).toBeVisible();
  const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(authenticator.generate(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
  await page.screenshot({ path: 'test-results/account.png', fullPage: true });
  await signOut(page);

  await signInWithPassword(page, email, password);
  await page.getByLabel('Authentication code').fill(authenticator.generate(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId('tenant-name')).toHaveText('Playwright Clinic');
  await signOut(page);

  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link instead' }).click();
  await expect(page.getByRole('status')).toContainText('sign-in link is on its way');
  await page.screenshot({ path: 'test-results/login.png', fullPage: true });
  await page.goto(newestMailTo(email).link);
  await page.getByLabel('Authentication code').fill(authenticator.generate(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId('tenant-name')).toHaveText('Playwright Clinic');
});

test('console pages send visitors without a session to sign in', async ({ page }) => {
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login/);
});
