import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { base, clinicWithUser, ops, PASSWORD, signInWithPassword, signOut } from './helpers';

/** A sandbox secret key of the tenant, minted through the ops API, for setup the spec does not click through. */
async function tenantKey(tenantId: string) {
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenantId}`, { name: 'e2e setup' });
  return key;
}

async function api<T = any>(key: string, method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base()}/v1${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.ok, await res.clone().text()).toBe(true);
  return res.json() as Promise<T>;
}

/** The page at desktop and phone width into docs/screenshots; its content never runs wider than its column. */
async function shots(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `docs/screenshots/${name}-${width}.png`, fullPage: true });
    const overflow = await page.locator('main').evaluate((main) => main.scrollWidth - main.clientWidth);
    expect(overflow, `${name} content wider than the page at ${width}px`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();

test('products, a pharmacy, a refused and an approved catalog upload, then the routing preview picks that pharmacy', async ({ page }) => {
  const { tenantId, email } = await clinicWithUser('Catalog Clinic', 'admin');
  const key = await tenantKey(tenantId);
  // The second product through the API; the first through the console below.
  await api(key, 'POST', '/products', { name: 'Ondansetron', sku: 'ONDA-4', form: 'tablet', strength: '4 mg', rxRequired: true, active: true });

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);

  // Products: create one and see both.
  await nav(page, 'Products');
  await expect(page.getByRole('heading', { name: 'Products', level: 1 })).toBeVisible();
  await page.getByLabel('Product name').fill('Semaglutide');
  await page.getByLabel('SKU').fill('SEMA-025');
  await page.getByLabel('Form').selectOption('injection');
  await page.getByLabel('Strength').fill('0.25 mg');
  // A 4-4-2 label NDC is kept as 11 digits 5-4-2 (DESIGN decision 42).
  await page.getByLabel('NDC (optional)').fill('0169-4132-12');
  await page.getByLabel('RxCUI (optional)').fill('1991311');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Created Semaglutide' })).toBeVisible();
  const sema = page.getByTestId('product-row').filter({ hasText: 'SEMA-025' });
  await expect(sema).toContainText('injection');
  await expect(sema).toContainText('00169-4132-12 / 1991311');
  await expect(sema).toContainText('active');
  await expect(page.getByTestId('product-row')).toHaveCount(2);

  // A protocol of both products, each with its quantity, sig and refills.
  await page.getByLabel('Protocol name').fill('GLP-1 starter');
  await page.getByLabel('Item 1 product').selectOption({ label: 'Semaglutide 0.25 mg (SEMA-025)' });
  await page.getByLabel('Item 1 quantity').fill('4');
  await page.getByLabel('Item 1 sig').fill('Inject 0.25 mg once weekly');
  await page.getByLabel('Item 1 refills').fill('2');
  await page.getByRole('button', { name: 'Add item' }).click();
  await page.getByLabel('Item 2 product').selectOption({ label: 'Ondansetron 4 mg (ONDA-4)' });
  await page.getByLabel('Item 2 sig').fill('Take 1 tablet as needed for nausea');
  await page.getByRole('button', { name: 'Create protocol' }).click();
  const protocol = page.getByTestId('protocol-row').filter({ hasText: 'GLP-1 starter' });
  await expect(protocol.getByRole('listitem')).toHaveText([
    'Semaglutide × 4 · Inject 0.25 mg once weekly · 2 refills',
    'Ondansetron × 1 · Take 1 tablet as needed for nausea · 0 refills',
  ]);
  await shots(page, 'products');

  // Deactivate and reactivate.
  await sema.getByRole('button', { name: 'Deactivate Semaglutide' }).click();
  await expect(sema).toContainText('inactive');
  await sema.getByRole('button', { name: 'Activate Semaglutide' }).click();
  await expect(sema.getByRole('button', { name: 'Deactivate Semaglutide' })).toBeVisible();

  // A second pharmacy through the API, approved: dearer but faster than the one connected below, CA only.
  const valley = await api<{ id: string }>(key, 'POST', '/pharmacies', { name: 'Valley Rx', adapter: 'simulated', settings: {}, states: ['CA'] });
  const valleyCsv = await fetch(`${base()}/v1/catalogs/upload?pharmacyConnectionId=${valley.id}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
    body: 'sku,item_code,price_cents,stock,eta_days\nSEMA-025,V-9,13900,5,1\n',
  });
  expect(valleyCsv.status).toBe(201);
  await api(key, 'PATCH', `/catalogs/${(await valleyCsv.json()).id}/approve`, {});

  // Pharmacies: connect a simulated pharmacy through the form; its secret is shown once.
  await nav(page, 'Pharmacies');
  await page.getByLabel('Pharmacy name').fill('Sunrise Compounding');
  await page.getByLabel('States shipped to').fill('ca, ny');
  await page.getByRole('button', { name: 'Connect pharmacy' }).click();
  await expect(page.getByTestId('pharmacy-secret')).toHaveText(/^whsec_/);
  const pharmacy = page.getByTestId('pharmacy-row').filter({ hasText: 'Sunrise Compounding' });
  await expect(pharmacy.getByTestId('pharmacy-states')).toHaveText('CA, NY');
  await expect(pharmacy.getByTestId('pharmacy-approved-catalog')).toContainText('none');
  await expect(pharmacy.getByText('No catalogs yet')).toBeVisible();

  // A file with bad rows is refused whole, each bad row named by its line.
  await pharmacy.getByLabel('Catalog CSV', { exact: true }).fill(
    ['sku,item_code,price_cents,stock,eta_days', 'SEMA-025,SUN-1,12900,40,3', 'ONDA-4,SUN-2,twelve,10,2', 'NOPE-1,SUN-3,500,1,1'].join('\n'),
  );
  await pharmacy.getByRole('button', { name: 'Upload catalog' }).click();
  const refusal = pharmacy.getByTestId('catalog-upload-error');
  await expect(refusal).toHaveAttribute('role', 'alert');
  await expect(refusal.getByRole('listitem')).toHaveText([
    'Line 3: price_cents must be a whole number from 0 to 10000000.',
    'Line 4: No product of this tenant and mode has this SKU or id.',
  ]);
  const sunrise = (await api<{ id: string; name: string }[]>(key, 'GET', '/pharmacies')).find((p) => p.name === 'Sunrise Compounding')!;
  expect(await api<unknown[]>(key, 'GET', `/catalogs?pharmacyConnectionId=${sunrise.id}`)).toHaveLength(0);
  await expect(pharmacy.getByTestId('catalog-row')).toHaveCount(0);

  // A good file chosen with the file input: loaded into the text area, uploaded as pending, reviewed, approved.
  await pharmacy.getByLabel('Catalog CSV file').setInputFiles({
    name: 'sunrise.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('sku,item_code,price_cents,stock,eta_days\nSEMA-025,SUN-1,12900,40,3\nONDA-4,SUN-2,1250,10,2\n'),
  });
  await expect(pharmacy.getByLabel('Catalog CSV', { exact: true })).toHaveValue(/SEMA-025,SUN-1,12900/);
  await pharmacy.getByRole('button', { name: 'Upload catalog' }).click();
  await expect(pharmacy.getByTestId('catalog-upload-status')).toContainText('with 2 lines; it is pending review');
  await expect(refusal).toHaveCount(0);
  const catalog = pharmacy.getByTestId('catalog-row');
  await expect(catalog).toHaveCount(1);
  await expect(catalog.getByTestId('catalog-status')).toHaveText('pending');
  await catalog.getByRole('button', { name: 'View lines' }).click();
  await expect(pharmacy.getByTestId('catalog-line')).toHaveCount(2);
  await expect(pharmacy.getByTestId('catalog-line').first()).toContainText('$129.00');
  await catalog.getByRole('button', { name: 'Approve' }).click();
  await expect(catalog.getByTestId('catalog-status')).toHaveText('approved');
  await expect(catalog.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  const catalogId = await catalog.getAttribute('data-catalog-id');
  await expect(pharmacy.getByTestId('pharmacy-approved-catalog')).toContainText(`${catalogId} (2 lines)`);

  // A sync from the (unscripted) simulated pharmacy brings an empty pending list; rejecting it keeps the approved one.
  await pharmacy.getByRole('button', { name: 'Sync catalog' }).click();
  await expect(pharmacy.getByRole('status').filter({ hasText: 'Synced catalog' })).toContainText('0 lines; pending review');
  await expect(pharmacy.getByTestId('catalog-row')).toHaveCount(2);
  const synced = pharmacy.getByTestId('catalog-row').first(); // newest first
  await expect(synced).toContainText('sync');
  await synced.getByRole('button', { name: 'Reject' }).click();
  await pharmacy.getByLabel('Rejection reason').fill('Empty price list');
  await pharmacy.getByRole('button', { name: 'Confirm rejection' }).click();
  await expect(synced.getByTestId('catalog-status')).toContainText('rejected');
  await expect(synced.getByTestId('catalog-status')).toContainText('Empty price list');
  await expect(synced.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(pharmacy.getByTestId('pharmacy-approved-catalog')).toContainText(`${catalogId} (2 lines)`);
  await shots(page, 'pharmacies');

  // Routing: the live preview sends the order (Semaglutide, for a California patient) whole to Sunrise at its catalog price.
  await nav(page, 'Routing');
  await expect(page.getByRole('heading', { name: 'Routing', level: 1 })).toBeVisible();
  await page.getByLabel('Semaglutide 0.25 mg (SEMA-025)').check();
  await page.getByLabel('Patient state').selectOption('CA');
  const decision = page.getByTestId('plan-decision');
  await expect(page.getByTestId('plan-line')).toHaveCount(1);
  await expect(decision.getByTestId('plan-chosen')).toHaveText('Sunrise Compounding');
  await expect(decision.getByTestId('plan-price')).toHaveText('$129.00');
  await expect(decision.getByTestId('plan-eta')).toHaveText('3 days');
  await expect(decision.getByTestId('plan-reason')).toHaveText('lowest_cost');
  await expect(page.getByTestId('plan-alternative')).toHaveText([/^2\s*Valley Rx\s*\$139\.00\s*1 day/]);
  await expect(page.getByTestId('plan-summary')).toContainText('Whole order to Sunrise Compounding');
  await expect(page.getByTestId('plan-summary')).toContainText('total $129.00');
  await expect(page.getByTestId('plan-summary')).toContainText('state CA checked');
  await shots(page, 'routing');

  // A state the pharmacy does not ship to: the line is unfillable, with the pharmacy's reason.
  await page.getByLabel('Patient state').selectOption('TX');
  const unfillable = page.getByTestId('plan-unfillable');
  await expect(unfillable).toContainText('no_qualifying_pharmacy');
  await expect(unfillable.getByTestId('plan-line-ineligible')).toHaveCount(2);
  for (const name of ['Sunrise Compounding', 'Valley Rx']) {
    await expect(unfillable.getByTestId('plan-line-ineligible').filter({ hasText: name })).toContainText(`${name}: It does not ship to the patient's state.`);
  }
  await expect(page.getByTestId('plan-line')).toHaveCount(0);

  // Saving the policy reports success and is what the API now answers.
  await page.getByLabel('Strategy').selectOption('fastest');
  await page.getByLabel('Require a state license').uncheck();
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByTestId('routing-policy-status')).toContainText('Routing policy saved');
  // The preview re-ran: with the state requirement off Texas is served again, now by the fastest pharmacy.
  await expect(decision.getByTestId('plan-chosen')).toHaveText('Valley Rx');
  await expect(decision.getByTestId('plan-reason')).toHaveText('fastest');
  await expect(decision.getByTestId('plan-eta')).toHaveText('1 day');
  // A pin overrides the policy for the whole order.
  await page.getByLabel('Pin the order to a pharmacy').selectOption({ label: 'Sunrise Compounding' });
  await expect(decision.getByTestId('plan-chosen')).toHaveText('Sunrise Compounding');
  await expect(decision.getByTestId('plan-reason')).toHaveText('manual');
  const policy = await api(key, 'GET', '/pharmacies/routing-policy');
  expect(policy).toMatchObject({ strategy: 'fastest', requireStateLicense: false });

  // Live mode is a separate world: no pharmacies yet, and the form offers the http adapter with its base URL.
  await nav(page, 'Pharmacies');
  await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'live' }).click();
  await expect(page.getByText('No pharmacies connected in live yet.')).toBeVisible();
  await page.getByLabel('Adapter').selectOption('http');
  await expect(page.getByLabel('Base URL')).toBeVisible();

  // An http pharmacy (the reference pharmacy, examples/pharmacy-reference) is connected disabled, and its card asks
  // for the protocol check (issue 54); the check runs from the service and lists each check.
  const port = await freePort();
  await page.getByLabel('Pharmacy name').fill('Reference Rx');
  await page.getByLabel('States shipped to').fill('CA');
  await page.getByLabel('Base URL').fill(`http://localhost:${port}`);
  await page.getByRole('button', { name: 'Connect pharmacy' }).click();
  const secret = (await page.getByTestId('pharmacy-secret').textContent())!;
  const reference = await startReference(secret, port);
  try {
    const card = page.getByTestId('pharmacy-row').filter({ hasText: 'Reference Rx' });
    await expect(card.getByTestId('verification-advice')).toHaveText('Before enabling this pharmacy for live orders, run the protocol check and see it pass.');
    await expect(card.getByTestId('pharmacy-verification')).toContainText('Never checked.');
    await card.getByRole('button', { name: 'Run the protocol check' }).click();
    await expect(card.getByTestId('verification-status')).toHaveText('All checks passed', { timeout: 60_000 });
    await expect(card.getByTestId('verification-check')).toHaveCount(11);
    await expect(card.getByTestId('verification-check').filter({ hasText: 'order-idempotent' })).toContainText('Expected: POST /orders again with the same Idempotency-Key');
    await expect(card.getByTestId('verification-advice')).toHaveCount(0);
    await shots(page, 'pharmacy-protocol-check');
  } finally {
    reference.kill();
  }
});

/** A port nothing listens on now, for the reference pharmacy the test starts once the connection's secret is shown. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** examples/pharmacy-reference as its README starts it, resolved once it listens. */
async function startReference(secret: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['examples/pharmacy-reference/server.mjs'], { env: { ...process.env, PORT: String(port), FR_PHARMACY_SECRET: secret }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the reference pharmacy exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening on')) resolve();
    });
  });
  return child;
}

test('patients: generate a synthetic one, read its record and access log; a provider is refused the log', async ({ page }) => {
  const { tenantId, email } = await clinicWithUser('Patient Clinic', 'admin');
  const providerEmail = `provider-${Date.now()}@clinic.test`;
  await ops(`/ops/tenants/${tenantId}/users`, { email: providerEmail, password: PASSWORD, role: 'provider' });

  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);
  await nav(page, 'Patients');
  await page.getByRole('button', { name: 'Generate synthetic patient' }).click();
  await expect(page.getByRole('main').getByRole('status')).toContainText('Generated');
  const row = page.getByTestId('patient-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('synthetic');
  await row.getByRole('link').click();
  await expect(page).toHaveURL(/\/patients\/pat_/);
  await expect(page.getByText('Date of birth')).toBeVisible();
  const log = page.getByTestId('access-log-row');
  // Newest first: this page's read, the list, then the creation.
  await expect(log.first()).toContainText('read');
  await expect(log.filter({ hasText: 'create' })).toHaveCount(1);
  await expect(log.first()).toContainText(/req_/);
  await page.screenshot({ path: 'test-results/patient.png', fullPage: true });
  const patientUrl = page.url();
  await signOut(page);

  await signInWithPassword(page, providerEmail);
  await expect(page).toHaveURL(/\/console$/);
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Products' })).toHaveCount(0);
  await page.goto(patientUrl);
  await expect(page.getByText('Date of birth')).toBeVisible();
  // The API's message, with the request id to quote.
  await expect(page.getByRole('main').getByRole('alert')).toContainText("Only an owner or admin may read a patient's access log.");
  await expect(page.getByRole('main').getByRole('alert')).toContainText(/Request req_/);
  await expect(page.getByTestId('access-log-row')).toHaveCount(0);
});
