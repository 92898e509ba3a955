import { expect, test } from '@playwright/test';
import { base, clinicWithUser, newestMailTo, PASSWORD, readSession, signInWithPassword, signOut, writeSession } from './helpers';

test('a near-expiry access token is refreshed once, even by concurrent requests; sign-out ends the API session', async ({ page, context }) => {
  const { email } = await clinicWithUser('Refresh Clinic', 'admin');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);
  const first = await readSession(context);
  expect(first.accessToken).toBeTruthy();
  expect(first.refreshToken).toBeTruthy();

  // Age the session as 15 minutes would, then load four console pages at once with that one cookie.
  await writeSession(context, { ...first, expiresAt: Date.now() });
  const pages = await Promise.all(['/console', '/account', '/webhooks', '/events'].map((p) => page.request.get(p)));
  for (const res of pages) {
    expect(res.status()).toBe(200);
    expect(new URL(res.url()).pathname).not.toBe('/login');
    expect(await res.text()).toContain('Refresh Clinic');
  }
  const second = await readSession(context);
  expect(second.refreshToken).not.toBe(first.refreshToken);
  expect(second.expiresAt).toBeGreaterThan(Date.now() + 10 * 60_000);

  // The family survived the concurrent rotation: the next refresh works too.
  await writeSession(context, { ...second, expiresAt: Date.now() });
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
  const third = await readSession(context);
  expect(third.refreshToken).not.toBe(second.refreshToken);

  // The browser never sees the API tokens through next-auth's session endpoint.
  const session = await (await page.request.get('/api/auth/session')).json();
  expect(session.user.email).toBe(email);
  expect(JSON.stringify(session)).not.toContain(third.refreshToken!);
  expect(JSON.stringify(session)).not.toContain(third.accessToken!);

  await signOut(page);
  const refresh = await fetch(`${base()}/v1/auth/refresh`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refreshToken: third.refreshToken }),
  });
  expect(refresh.status).toBe(401);
  await page.goto('/console');
  await expect(page).toHaveURL(/\/login$/);
});

test('the mode switch is remembered and sent to the API as X-Mode', async ({ page }) => {
  const { email } = await clinicWithUser('Mode Clinic', 'admin');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);
  await page.getByRole('link', { name: 'Account' }).click();
  const mode = page.getByRole('group', { name: 'Mode' });
  await expect(mode.getByRole('button', { name: 'Sandbox' })).toHaveAttribute('aria-pressed', 'true');
  await mode.getByRole('button', { name: 'Live' }).click();
  await expect(mode.getByRole('button', { name: 'Live' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Live mode: real patients')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('profile-mode')).toHaveText('live');
});

test('an invited person sets a password from the e-mailed link and lands in the console', async ({ page, context }) => {
  const { email: adminEmail } = await clinicWithUser('Invite Clinic', 'admin');
  const login = await (
    await fetch(`${base()}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: adminEmail, password: PASSWORD }) })
  ).json();
  const invitee = `invitee-${Date.now()}@clinic.test`;
  const invited = await fetch(`${base()}/v1/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${login.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: invitee, role: 'developer' }),
  });
  expect(invited.status, await invited.clone().text()).toBe(201);

  await page.goto(newestMailTo(invitee).link);
  await page.getByLabel('Password', { exact: true }).fill('a brand new passphrase');
  await page.getByLabel('Confirm password').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByTestId('tenant-name')).toHaveText('Invite Clinic');
  expect((await readSession(context)).email).toBe(invitee);
});
