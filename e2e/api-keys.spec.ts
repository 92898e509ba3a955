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
