import { expect, test } from '@playwright/test';
import { clinicWithUser, newestMailTo, ops, PASSWORD, signInWithPassword } from './helpers';

test('an admin invites a member who accepts from the mail, changes their role and deactivates them', async ({ page, browser }) => {
  const { tenantId, email } = await clinicWithUser('Team Clinic', 'admin');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);
  await page.goto('/team');
  await expect(page.getByRole('heading', { name: 'Team' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText('(you)');

  // An admin grants roles up to admin, never owner.
  await expect(page.getByLabel('Role', { exact: true }).locator('option')).toHaveText(['Admin', 'Developer', 'Provider']);

  // Bad input: the API's message beside the field, and no one is invited.
  await page.getByLabel('E-mail').fill('ivy@clinic.test');
  await page.getByLabel('Name (optional)').fill('Ivy Invitee');
  await page.getByLabel('Role', { exact: true }).selectOption('provider');
  await page.getByLabel('NPI (optional)').fill('1234567890');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.locator('#invite-npi-error')).toContainText('NPI');
  await expect(page.getByTestId('team-member')).toHaveCount(1);

  const invitee = `ivy-${Date.now()}@clinic.test`;
  await page.getByLabel('E-mail').fill(invitee);
  await page.getByLabel('Role', { exact: true }).selectOption('developer');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`An invitation is on its way to ${invitee}`)).toBeVisible();
  const row = page.getByTestId('team-member').filter({ hasText: 'Ivy Invitee' });
  await expect(row.getByTestId('member-status')).toHaveText('Invited');
  await expect(row).toContainText(invitee);

  // The invitee, in a browser of their own, sets a password from the mailed link and is signed in.
  const theirs = await browser.newContext();
  const them = await theirs.newPage();
  await them.goto(newestMailTo(invitee).link);
  await them.getByLabel('Password', { exact: true }).fill('a brand new passphrase');
  await them.getByLabel('Confirm password').fill('a brand new passphrase');
  await them.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(them).toHaveURL(/\/console$/);
  await expect(them.getByTestId('tenant-name')).toHaveText('Team Clinic');

  await page.reload();
  await expect(row.getByTestId('member-status')).toHaveText('Active');

  // A provider among the members shows their NPI state and licensed states, pending ones included.
  const drEmail = `dr-${Date.now()}@clinic.test`;
  await ops(`/ops/tenants/${tenantId}/users`, { email: drEmail, password: PASSWORD, role: 'provider', name: 'Dr Lin Provider', npi: '1234567893', licensedStates: ['TX'] });

  await row.getByLabel('Role of Ivy Invitee').selectOption('admin');
  await expect(row.getByLabel('Role of Ivy Invitee')).toBeEnabled();
  await page.reload();
  await expect(row.getByLabel('Role of Ivy Invitee')).toHaveValue('admin');
  const dr = page.getByTestId('team-member').filter({ hasText: 'Dr Lin Provider' });
  await expect(dr).toContainText('NPI 1234567893');
  await expect(dr).toContainText(/Licensed in|Awaiting verification/);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `docs/screenshots/team-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await row.getByRole('button', { name: 'Deactivate Ivy Invitee' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate Ivy Invitee?' });
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row.getByTestId('member-status')).toHaveText('Deactivated');
  await expect(row.getByRole('button', { name: 'Deactivate Ivy Invitee' })).toHaveCount(0);
  await expect(row.getByLabel('Role of Ivy Invitee')).toHaveCount(0);

  // Their session ended with the deactivation.
  await them.goto('/team');
  await expect(them).toHaveURL(/\/login$/);
  await theirs.close();

  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `docs/screenshots/account-${width}.png`, fullPage: true });
  }
});

test('a developer sees a plain sentence on the team page, not a form that fails', async ({ page }) => {
  const { email } = await clinicWithUser('Team Dev Clinic', 'developer');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);
  const res = await page.goto('/team');
  expect(res?.status()).toBe(200);
  await expect(page.getByText('Only your clinic’s owners and admins see and manage the team.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
});
