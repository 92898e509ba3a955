import { expect, test } from '@playwright/test';
import { base, clinicWithUser, ops, signInWithPassword } from './helpers';

test('the API keys page lists who created each key, also after its creator is revoked', async ({ page }) => {
  const { tenantId, email } = await clinicWithUser('Keys Clinic', 'developer');
  const minted = await ops<{ key: string; apiKey: { id: string } }>(`/developer/keys/ops/tenants/${tenantId}`, { name: 'Onboarding key' });
  const child = await fetch(`${base()}/v1/developer/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${minted.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Made by the onboarding key', keyType: 'restricted', scopes: ['orders.read'] }),
  });
  expect(child.status).toBe(201);
  const revoked = await fetch(`${base()}/v1/developer/keys/${minted.apiKey.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${minted.key}` } });
  expect(revoked.status).toBe(200);

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  const childRow = page.getByRole('row').filter({ hasText: 'Made by the onboarding key' });
  await expect(childRow.getByTestId('key-creator')).toHaveText(/Key “Onboarding key”/);
  await expect(childRow).toContainText('Active');
  const parentRow = page.getByRole('row').filter({ hasText: 'Onboarding key' }).filter({ hasNotText: 'Made by' });
  await expect(parentRow.getByTestId('key-creator')).toHaveText('Platform operators');
  await expect(parentRow).toContainText('Revoked');
  await page.screenshot({ path: 'test-results/api-keys.png', fullPage: true });
});

test('create a restricted key, use it over /v1, revoke it, and the revoked key gets 401', async ({ page, context }) => {
  const { email } = await clinicWithUser('Key Maker Clinic', 'admin');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);
  await page.goto('/keys');
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();

  // A restricted key without a scope: the API's message shows beside the picker, and nothing is created.
  await page.getByLabel('Name').fill('Webhook reader');
  await page.getByLabel('Type').selectOption('restricted');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('#key-scopes-error')).toContainText('at least one scope');
  await expect(page.getByRole('row').filter({ hasText: 'Webhook reader' })).toHaveCount(0);

  await page.getByRole('checkbox', { name: 'webhooks.manage' }).check();
  await page.getByLabel('Expires after (days, empty for never)').fill('30');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByText('It will not be shown again')).toBeVisible();
  const plaintext = (await page.getByTestId('new-key-plaintext').textContent())!.trim();
  expect(plaintext).toMatch(/^rk_/);
  await page.getByRole('button', { name: 'Copy the new key' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(plaintext);
  await page.screenshot({ path: 'test-results/api-keys-plaintext.png', fullPage: true });

  const works = await fetch(`${base()}/v1/developer/webhooks`, { headers: { authorization: `Bearer ${plaintext}` } });
  expect(works.status).toBe(200);
  const outside = await fetch(`${base()}/v1/patients`, { headers: { authorization: `Bearer ${plaintext}` } });
  expect(outside.status).toBe(403);

  await page.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByTestId('new-key-plaintext')).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: 'Webhook reader' });
  await expect(row).toContainText(`…${plaintext.slice(-4)}`);
  await expect(row).toContainText('webhooks.manage');
  await expect(row).toContainText('Active');
  await expect(row.getByTestId('key-creator')).toHaveText(email);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `docs/screenshots/keys-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await row.getByRole('button', { name: 'Revoke Webhook reader' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke “Webhook reader”?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: 'Revoke Webhook reader' }).click();
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button', { name: 'Revoke Webhook reader' })).toHaveCount(0);

  const refused = await fetch(`${base()}/v1/developer/webhooks`, { headers: { authorization: `Bearer ${plaintext}` } });
  expect(refused.status).toBe(401);
});
