import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { ops, signInWithPassword } from './helpers';

test('create a webhook endpoint, send a test and see the delivery; browse events', async ({ page }) => {
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;

  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Webhook Clinic' });
  const email = `dev-${Date.now()}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email, password: 'correct horse battery staple', role: 'developer' });
  await signInWithPassword(page, email, 'correct horse battery staple');
  await expect(page).toHaveURL(/\/console$/);

  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel('Endpoint URL').fill(`http://localhost:${port}/hooks`);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
  const row = page.getByTestId('webhook-endpoint').filter({ hasText: `localhost:${port}` });
  await expect(row).toContainText('enabled');

  await row.getByRole('button', { name: 'Send test' }).click();
  await expect(row.getByRole('status')).toContainText('delivered');
  await expect(row.getByTestId('delivery-row').first()).toContainText('delivered');
  expect(received.length).toBeGreaterThanOrEqual(1);
  await page.screenshot({ path: 'test-results/webhooks.png', fullPage: true });

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('disabled');

  await page.getByRole('link', { name: 'Events' }).click();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  receiver.close();
});
