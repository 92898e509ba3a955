import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { base, ops, signInWithPassword } from './helpers';

const PASSWORD = 'correct horse battery staple';

/** A receiver on localhost that answers 200 and remembers each delivery's webhook-id. */
async function receiver() {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    received.push(String(req.headers['webhook-id']));
    res.writeHead(200).end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { received, server, port: (server.address() as AddressInfo).port };
}

/** A developer of a new clinic, signed in, and a sandbox key of that clinic to check what the API answers. */
async function developer(page: Page, clinic: string) {
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: clinic });
  const email = `dev-${Date.now()}-${Math.floor(Math.random() * 1e6)}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email, password: PASSWORD, role: 'developer' });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e check' });
  await signInWithPassword(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/console$/);
  return { key };
}

type Listed = { id: string; url: string; description: string | null; events: string[]; status: string };
async function listed(key: string): Promise<Listed[]> {
  const res = await fetch(`${base()}/v1/developer/webhooks`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  return res.json() as Promise<Listed[]>;
}

test('create a webhook endpoint, send a test and see the delivery; browse events', async ({ page }) => {
  const { received, server, port } = await receiver();
  await developer(page, 'Webhook Clinic');

  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel('Endpoint URL').fill(`http://localhost:${port}/hooks`);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
  await expect(page.getByText('shown only once')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy signing secret' })).toBeVisible();
  const row = page.getByTestId('webhook-endpoint').filter({ hasText: `localhost:${port}` });
  await expect(row).toContainText('enabled');

  await row.getByRole('button', { name: 'Send test' }).click();
  await expect(row.getByTestId('webhook-test-result')).toContainText('delivered');
  await expect(row.getByTestId('delivery-row').first()).toContainText('delivered');
  expect(received.length).toBeGreaterThanOrEqual(1);

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row).toContainText('disabled');

  await page.getByRole('link', { name: 'Events' }).click();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  server.close();
});

test('edit an endpoint (a refused URL changes nothing), disable and enable it, delete it with confirmation', async ({ page }) => {
  const { server, port } = await receiver();
  const { key } = await developer(page, 'Webhook Edit Clinic');
  const url = `http://localhost:${port}/orders`;

  await page.getByRole('link', { name: 'Webhooks' }).click();
  const add = page.getByRole('form', { name: 'Add an endpoint' });
  await add.getByLabel('Endpoint URL').fill(url);
  await add.getByLabel('Description').fill('Order updates');
  await add.getByLabel('order.routed').check();
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(page.getByTestId('webhook-secret')).toHaveText(/^whsec_/);
  const row = page.getByTestId('webhook-endpoint').filter({ hasText: url });
  await expect(row).toContainText('Order updates');
  await expect(row).toContainText('order.routed');
  // The form starts empty again for the next endpoint.
  await expect(add.getByLabel('Endpoint URL')).toHaveValue('');

  // A private host is refused: the API's message sits under the URL field and nothing is written.
  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = row.getByRole('form', { name: `Edit ${url}` });
  await edit.getByLabel('Endpoint URL').fill('https://192.168.10.20/hooks');
  await edit.getByLabel('Description').fill('Should not be saved');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const fieldError = edit.getByTestId('field-error');
  await expect(fieldError).toHaveText('The URL’s host is a private, loopback, link-local, reserved or metadata address.');
  await expect(edit.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
  await expect(edit.getByLabel('Endpoint URL')).toHaveAttribute('aria-describedby', (await fieldError.getAttribute('id'))!);
  let [endpoint] = await listed(key);
  expect(endpoint).toMatchObject({ url, description: 'Order updates', events: ['order.routed'] });

  // A good edit: new URL, new note, every event.
  const moved = `http://localhost:${port}/fulfilment`;
  await edit.getByLabel('Endpoint URL').fill(moved);
  await edit.getByLabel('Description').fill('Fulfilment dashboard');
  await edit.getByLabel('order.routed').uncheck();
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toHaveCount(0);
  const movedRow = page.getByTestId('webhook-endpoint').filter({ hasText: moved });
  await expect(movedRow).toContainText('Fulfilment dashboard');
  await expect(movedRow).toContainText('All events');
  [endpoint] = await listed(key);
  expect(endpoint).toMatchObject({ url: moved, description: 'Fulfilment dashboard', events: [] });

  // Disable, then enable: the badge follows and so does the API.
  await movedRow.getByRole('button', { name: 'Disable' }).click();
  await expect(movedRow.getByRole('button', { name: 'Enable' })).toBeVisible();
  await expect(movedRow).toContainText('disabled');
  await expect.poll(async () => (await listed(key))[0].status).toBe('disabled');
  await expect(movedRow.getByRole('button', { name: 'Send test' })).toBeDisabled();
  await movedRow.getByRole('button', { name: 'Enable' }).click();
  await expect(movedRow.getByRole('button', { name: 'Disable' })).toBeVisible();
  await expect.poll(async () => (await listed(key))[0].status).toBe('enabled');

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `docs/screenshots/webhooks-${width}.png`, fullPage: true });
    // The page's own content never runs wider than its column (the URLs and event names break).
    const overflow = await page.locator('main').evaluate((main) => main.scrollWidth - main.clientWidth);
    expect(overflow, `content wider than the page at ${width}px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  // Delete asks first; Cancel keeps the endpoint.
  await movedRow.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this endpoint?' });
  await expect(dialog).toContainText(moved);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  expect(await listed(key)).toHaveLength(1);
  await movedRow.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete this endpoint?' }).getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page.getByTestId('webhook-endpoint')).toHaveCount(0);
  await expect(page.getByText('No endpoints in sandbox yet.')).toBeVisible();
  expect(await listed(key)).toEqual([]);

  // A developer has no catalog or pharmacy scope: those pages say so in a sentence.
  for (const [path, sentence] of [
    ['/products', 'cannot manage the product catalog'],
    ['/pharmacies', 'cannot manage pharmacy connections'],
    ['/routing', 'cannot change routing'],
  ]) {
    await page.goto(path);
    await expect(page.getByTestId('no-access')).toContainText(sentence);
  }
  server.close();
});
