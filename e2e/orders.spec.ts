import { freshTotp } from '../tests/helpers/totp';
import { expect, test, type Page } from '@playwright/test';
import { base, ops, PASSWORD, readSession, signInWithPassword, signOut } from './helpers';

/**
 * Orders in the console: a provider's approval queue (refused without MFA, refused outside their license,
 * approved once enrolled, the timeline and a shipment on the order page) and an admin's view of the same
 * clinic (approve refused with its reason, the status filter and paging, a new order, a draft resolved, a
 * rejected order rerouted and resubmitted, a cancellation). The clinic is set up through the API.
 */

async function api<T = any>(key: string, method: string, pathname: string, body?: unknown, contentType = 'application/json'): Promise<T> {
  const res = await fetch(`${base()}/v1${pathname}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(res.ok, `${method} ${pathname}: ${await res.clone().text()}`).toBe(true);
  return res.json() as Promise<T>;
}

/** A simulated pharmacy with an approved catalog (CSV rows of sku,price_cents). */
async function pharmacy(key: string, name: string, states: string[], settings: Record<string, unknown>, rows: [string, number][]) {
  const conn = await api<{ id: string }>(key, 'POST', '/pharmacies', { name, adapter: 'simulated', settings, states });
  const csv = ['sku,item_code,price_cents,stock,eta_days', ...rows.map(([sku, cents], i) => `${sku},${name.slice(0, 3).toUpperCase()}-${i},${cents},100,3`)].join('\n');
  const catalog = await api<{ id: string }>(key, 'POST', `/catalogs/upload?pharmacyConnectionId=${conn.id}`, csv, 'text/csv');
  await api(key, 'PATCH', `/catalogs/${catalog.id}/approve`, {});
  return conn;
}

const address = (city: string, state: string, postalCode: string) => ({ line1: '100 Main St', city, state, postalCode });

interface Clinic {
  /** The clinic's secret key (sandbox), for changes made behind the console's back. */
  key: string;
  adminEmail: string;
  providerEmail: string;
  developerEmail: string;
  /** Pending approval, the oldest: ONDA for the CA patient, which the provider declines. */
  declined: string;
  /** Pending approval: SEMA for the CA patient (to Sunrise, which holds it as received). */
  sema: string;
  /** Pending approval: ONDA for the CA patient (to Express Rx, which ships at once). */
  onda: string;
  /** Pending approval: SEMA for the TX patient, outside the provider's license. */
  texas: string;
  /** Pending approval: TIRZ for the CA patient (to Declining Rx, which rejects it; Sunrise is next best). */
  tirz: string;
}

async function setUpClinic(): Promise<Clinic> {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Orders Clinic' });
  const adminEmail = `admin-${stamp}@clinic.test`;
  const providerEmail = `provider-${stamp}@clinic.test`;
  const developerEmail = `developer-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: developerEmail, password: PASSWORD, role: 'developer' });
  await ops(`/ops/tenants/${tenant.id}/users`, {
    email: providerEmail,
    password: PASSWORD,
    role: 'provider',
    name: 'Dr. Rivera',
    npi: '1234567893',
    npiVerified: true,
    licensedStates: ['CA'],
  });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e orders setup' });

  const product = (name: string, sku: string, form: string, strength: string) =>
    api<{ id: string }>(key, 'POST', '/products', { name, sku, form, strength, rxRequired: true, active: true });
  const sema = await product('Semaglutide', 'SEMA-025', 'injection', '0.25 mg');
  const onda = await product('Ondansetron', 'ONDA-4', 'tablet', '4 mg');
  const tirz = await product('Tirzepatide', 'TIRZ-25', 'injection', '2.5 mg');

  // Sunrise keeps an order "received" for an hour; Express Rx accepts and ships at once; Declining Rx rejects all.
  await pharmacy(key, 'Sunrise Compounding', ['CA', 'TX'], { acceptAfterSeconds: 3600, shipAfterSeconds: 3600, deliverAfterSeconds: 7200 }, [
    ['SEMA-025', 12900],
    ['TIRZ-25', 29900],
  ]);
  await pharmacy(key, 'Express Rx', ['CA'], { acceptAfterSeconds: 0, shipAfterSeconds: 0, deliverAfterSeconds: 259200, carrier: 'USPS' }, [['ONDA-4', 1250]]);
  await pharmacy(key, 'Declining Rx', ['CA'], { behavior: 'reject', rejectReasonCode: 'prescription_invalid' }, [['TIRZ-25', 100]]);

  const patient = (firstName: string, lastName: string, dateOfBirth: string, addr: ReturnType<typeof address>) =>
    api<{ id: string }>(key, 'POST', '/patients', { firstName, lastName, dateOfBirth, sex: 'female', address: addr });
  const maria = await patient('Maria', 'Alvarez', '1985-04-12', address('San Diego', 'CA', '92101'));
  const june = await patient('June', 'Carter', '1979-09-30', address('Austin', 'TX', '78701'));

  const order = async (productId: string, patientId: string | undefined, sig: string) =>
    (await api<{ id: string; status: string }>(key, 'POST', '/orders', { items: [{ productId, quantity: 4, sig, refills: 2 }], ...(patientId ? { patientId } : {}) })).id;
  // 22 drafts first (oldest), so the list has a second page.
  for (let i = 0; i < 22; i++) await order(onda.id, undefined, `Draft ${i + 1}: take 1 tablet as needed`);
  const declined = await order(onda.id, maria.id, 'Take 2 tablets twice daily');
  const clinic: Clinic = {
    key,
    declined,
    adminEmail,
    providerEmail,
    developerEmail,
    sema: await order(sema.id, maria.id, 'Inject 0.25 mg once weekly'),
    onda: await order(onda.id, maria.id, 'Take 1 tablet as needed for nausea'),
    texas: await order(sema.id, june.id, 'Inject 0.25 mg once weekly'),
    tirz: await order(tirz.id, maria.id, 'Inject 2.5 mg once weekly'),
  };
  const pending = await api<{ id: string }[]>(key, 'GET', '/orders?status=pending_approval');
  expect(pending).toHaveLength(5);
  return clinic;
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();

async function openQueue(page: Page) {
  await nav(page, 'Orders');
  await page.getByRole('navigation', { name: 'Order views' }).getByRole('link', { name: 'Approval queue' }).click();
  await expect(page).toHaveURL(/\/orders\/approvals$/);
}

const queueRow = (page: Page, id: string) => page.locator(`[data-testid="approval-row"][data-order-id="${id}"]`);

/** The page at 1280 and 390 px wide, into docs/screenshots/<name>-<width>.png. */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `docs/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** Approves a queue row, through the confirmation that names the patient and the items. */
async function approveRow(page: Page, id: string) {
  await queueRow(page, id).getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Approve and send' }).click();
}

/** Reloads the order page until its status badge says `status` (pharmacy updates arrive through the worker). */
async function waitForStatus(page: Page, status: string) {
  const badge = page.getByRole('main').getByTestId('order-status').first();
  await expect(async () => {
    await page.reload();
    await expect(badge).toHaveText(status, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

test.describe.serial('orders', () => {
  let clinic: Clinic;

  test.beforeAll(async () => {
    clinic = await setUpClinic();
  });

  test('a provider approves from the queue once enrolled in MFA, within their license; the order page shows the timeline and the shipment', async ({ page }) => {
    await signInWithPassword(page, clinic.providerEmail);
    await expect(page).toHaveURL(/\/console$/);
    await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link')).toHaveText(['Overview', 'Orders', 'Intake', 'Questionnaires', 'Flows', 'Patients', 'Account']);

    // Without two-factor authentication every Approve is disabled, saying so.
    await openQueue(page);
    await expect(page.getByTestId('approval-row')).toHaveCount(5);
    // Oldest first, with how many wait.
    await expect(page.getByTestId('queue-summary')).toContainText('5 orders wait for approval, the oldest since');
    await expect(page.getByTestId('approval-row').first()).toHaveAttribute('data-order-id', clinic.declined);
    const sema = queueRow(page, clinic.sema);
    await expect(sema.getByTestId('approval-patient')).toHaveText(/^Maria Alvarez · \d+ years · CA · born 1985-04-12$/);
    await expect(sema).toContainText('Semaglutide 0.25 mg × 4 · Inject 0.25 mg once weekly · 2 refills');
    await expect(sema.getByRole('button', { name: 'Approve' })).toBeDisabled();
    await expect(sema.getByTestId('approve-blocked-reason')).toContainText('Enable two-factor authentication before clinical approvals.');
    await page.screenshot({ path: 'test-results/orders-queue-no-mfa.png', fullPage: true });

    // Enroll, as the sign-in spec does, then sign in again with password and code.
    await sema.getByRole('link', { name: 'Set it up in Account' }).click();
    await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
    await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = (await page.getByTestId('mfa-secret').textContent())!.trim();
    await page.getByLabel('Code from the app').fill(await freshTotp(secret));
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
    await signOut(page);
    await signInWithPassword(page, clinic.providerEmail);
    await page.getByLabel('Authentication code').fill(await freshTotp(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/console$/);

    // The Texas patient is outside the provider's license: disabled, with the state named.
    await openQueue(page);
    const texas = queueRow(page, clinic.texas);
    await expect(texas.getByTestId('approval-patient')).toHaveText(/^June Carter · \d+ years · TX · born 1979-09-30$/);
    await expect(texas.getByRole('button', { name: 'Approve' })).toBeDisabled();
    await expect(texas.getByTestId('approve-blocked-reason')).toHaveText('You are not licensed in TX.');
    await shoot(page, 'approvals');

    // Declining needs a reason: an empty one is refused next to the field, and the order stays pending.
    const declined = queueRow(page, clinic.declined);
    await declined.getByRole('button', { name: 'Decline' }).click();
    const declineDialog = page.getByRole('dialog', { name: 'Decline this order for Maria Alvarez?' });
    await declineDialog.getByRole('button', { name: 'Decline order' }).click();
    await expect(declineDialog.getByTestId('decline-error')).toContainText('why you are declining');
    await declineDialog.getByLabel('Reason for declining').fill('Twice-daily ondansetron is above the protocol; please resubmit at 4 mg as needed.');
    await declineDialog.getByRole('button', { name: 'Decline order' }).click();
    await expect(declined.getByTestId('decline-outcome')).toContainText('Declined: the order is cancelled');
    await expect(declined.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(page.getByTestId('queue-summary')).toContainText('4 orders wait for approval');

    // California: approving asks first, naming the patient and the items; cancelling changes nothing.
    await expect(sema.getByTestId('approve-blocked-reason')).toHaveCount(0);
    await sema.getByRole('button', { name: 'Approve' }).click();
    const approveDialog = page.getByRole('dialog', { name: 'Approve this order for Maria Alvarez?' });
    await expect(approveDialog.getByTestId('approve-confirm-items')).toHaveText('Semaglutide 0.25 mg × 4 · Inject 0.25 mg once weekly');
    await approveDialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(approveDialog).toBeHidden();
    await expect(sema.getByTestId('approve-outcome')).toHaveCount(0);
    await sema.getByRole('button', { name: 'Approve' }).click();
    await approveDialog.getByRole('button', { name: 'Approve and send' }).click();
    await expect(sema.getByRole('status')).toContainText('Approved and sent to the pharmacy');
    await expect(sema.getByRole('status').getByTestId('approved-status')).toHaveText('submitted');
    await expect(sema.getByRole('button', { name: 'Approve' })).toHaveCount(0);
    for (const id of [clinic.onda, clinic.tirz]) {
      await approveRow(page, id);
      await expect(queueRow(page, id).getByRole('status')).toContainText('Approved');
    }
    await page.screenshot({ path: 'test-results/orders-queue-approved.png', fullPage: true });

    // The order page: submitted to Sunrise, every transition with its actor.
    await sema.getByRole('link', { name: clinic.sema }).click();
    await expect(page).toHaveURL(new RegExp(`/orders/${clinic.sema}$`));
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('submitted');
    await expect(page.getByTestId('order-patient')).toContainText('Maria Alvarez');
    await expect(page.getByTestId('order-patient-state')).toHaveText('CA');
    await expect(page.getByTestId('order-pharmacy-name')).toHaveText('Sunrise Compounding');
    // Why routing chose it, as decided at approval (the routing plan gives the same words).
    await expect(page.getByTestId('order-routing-reason')).toHaveText('lowest_cost');
    await expect(page.getByTestId('order-routing-explanation')).toHaveText('Sunrise Compounding is the only pharmacy that can fill every line.');
    await expect(page.getByTestId('prescription-row')).toHaveText([/Semaglutide 0\.25 mg\s*SEMA-025\s*injection\s*4\s*Inject 0\.25 mg once weekly\s*2/]);
    // The line's FHIR MedicationRequest and the patient's FHIR record, absolute on this host, to copy (DESIGN decision 42).
    await expect(page.getByTestId('fhir-link').first()).toHaveText(new RegExp(`^https?://[^/]+/v1/fhir/MedicationRequest/${clinic.sema.replace('_', '-')}-1$`));
    await expect(page.getByTestId('fhir-link').last()).toHaveText(/\/v1\/fhir\/Patient\/pat-[0-9a-z]{26}$/);
    await expect(page.getByTestId('order-shipment')).toContainText('Not shipped yet.');
    await expect(page.getByTestId('timeline-change')).toHaveText(['created awaiting approval', 'awaiting approval → approved', 'approved → sending to the pharmacy', 'sending to the pharmacy → submitted']);
    await expect(page.getByTestId('timeline-row').nth(0)).toContainText('API key');
    await expect(page.getByTestId('timeline-row').nth(1)).toContainText(/User\s*Dr\. Rivera\s*usr_/);
    await expect(page.getByTestId('timeline-row').nth(3)).toContainText(/Pharmacy\s*Sunrise Compounding\s*phc_/);
    await expect(page.getByTestId('order-facts')).toContainText(/Approved.*by\s*Dr\. Rivera\s*usr_/);
    await page.screenshot({ path: 'test-results/order-submitted.png', fullPage: true });

    // Express Rx ships at once: the page shows the carrier, the tracking link and the estimated delivery.
    await page.goto(`/orders/${clinic.onda}`);
    await waitForStatus(page, 'shipped');
    const shipment = page.getByTestId('order-shipment');
    await expect(shipment.getByTestId('shipment-carrier')).toHaveText('USPS');
    const tracking = shipment.getByRole('link');
    await expect(tracking).toHaveText(/^SIM\d{18}$/);
    await expect(tracking).toHaveAttribute('href', /^https:\/\/tools\.usps\.com\/go\/TrackConfirmAction\?tLabels=SIM\d{18}$/);
    await expect(shipment.getByTestId('shipment-eta')).toHaveText(/^\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByTestId('timeline-change')).toHaveText([
      'created awaiting approval',
      'awaiting approval → approved',
      'approved → sending to the pharmacy',
      'sending to the pharmacy → submitted',
      'submitted → accepted',
      'accepted → shipped',
    ]);
    await page.screenshot({ path: 'test-results/order-shipped.png', fullPage: true });

    // The declined order: cancelled, with the provider and the reason on its timeline.
    await page.goto(`/orders/${clinic.declined}`);
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('cancelled');
    const last = page.getByTestId('timeline-row').last();
    await expect(last.getByTestId('timeline-change')).toHaveText('awaiting approval → cancelled');
    await expect(last).toContainText(/User\s*Dr\. Rivera\s*usr_/);
    await expect(last).toContainText('declined_by_provider');
    await expect(last.getByTestId('timeline-note')).toHaveText('Twice-daily ondansetron is above the protocol; please resubmit at 4 mg as needed.');
  });

  test('an admin cannot approve (the button says why), filters and pages the list, creates and resolves orders, reroutes, resubmits and cancels', async ({ page }) => {
    await signInWithPassword(page, clinic.adminEmail);
    await expect(page).toHaveURL(/\/console$/);

    // The queue: the one order left, its Approve disabled with the reason next to it.
    await openQueue(page);
    await expect(page.getByTestId('approval-row')).toHaveCount(1);
    const texas = queueRow(page, clinic.texas);
    await expect(texas.getByRole('button', { name: 'Approve' })).toBeDisabled();
    await expect(texas.getByTestId('approve-blocked-reason')).toHaveText('Only a licensed provider signed in with their own account can do this.');
    await expect(texas.getByRole('button', { name: 'Decline' })).toHaveCount(0);
    await page.screenshot({ path: 'test-results/orders-queue-admin.png', fullPage: true });
    // What the button says is what the API does: this admin's own session is refused.
    const { accessToken } = await readSession(page.context());
    const refused = await fetch(`${base()}/v1/orders/${clinic.texas}/approve`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe('provider_required');

    // All orders: a page of 25, then the rest.
    await page.getByRole('navigation', { name: 'Order views' }).getByRole('link', { name: 'All orders' }).click();
    await expect(page).toHaveURL(/\/orders$/);
    const rows = page.getByTestId('order-row');
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toHaveAttribute('data-order-id', clinic.tirz); // newest first
    await expect(rows.filter({ hasText: clinic.sema })).toContainText('Sunrise Compounding');
    await expect(rows.filter({ hasText: clinic.sema }).getByTestId('order-row-patient')).toContainText(/Maria Alvarez\s*pat_/);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect(rows).toHaveCount(27);
    await expect(page.getByRole('button', { name: 'Load more' })).toHaveCount(0);

    // The status filter lives in the URL.
    await page.getByLabel('Status').selectOption('pending_approval');
    await expect(page).toHaveURL(/\/orders\?status=pending_approval$/);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-order-id', clinic.texas);
    await page.reload();
    await expect(page.getByLabel('Status')).toHaveValue('pending_approval');
    await expect(rows).toHaveCount(1);
    await page.getByLabel('Status').selectOption('draft');
    await expect(page).toHaveURL(/\/orders\?status=draft$/);
    await expect(rows).toHaveCount(22);

    // A new order with a patient waits for approval.
    await page.getByLabel('Status').selectOption('');
    await expect(page).toHaveURL(/\/orders$/);
    await page.getByRole('button', { name: 'New order' }).click();
    await page.getByRole('combobox', { name: 'Patient' }).selectOption({ label: 'Alvarez, Maria (1985-04-12, CA)' });
    await page.getByLabel('Item 1 product').selectOption({ label: 'Ondansetron 4 mg (ONDA-4)' });
    await page.getByLabel('Item 1 quantity').fill('30');
    await page.getByLabel('Item 1 sig').fill('Take 1 tablet every 8 hours as needed');
    await page.screenshot({ path: 'test-results/order-new.png', fullPage: true });
    await page.getByRole('button', { name: 'Create order' }).click();
    const created = page.getByTestId('order-created');
    await expect(created).toHaveAttribute('role', 'status');
    await expect(created).toContainText(/Created order ord_\w+: awaiting approval\./);
    await expect(rows.first().getByTestId('order-status')).toHaveText('awaiting approval');
    await shoot(page, 'orders-list');

    // One without a patient is a draft; resolving it on its page sends it for approval.
    await page.getByRole('button', { name: 'New order' }).click();
    await page.getByLabel('Item 1 product').selectOption({ label: 'Semaglutide 0.25 mg (SEMA-025)' });
    await page.getByLabel('Item 1 sig').fill('Inject 0.25 mg once weekly');
    await page.getByRole('button', { name: 'Create order' }).click();
    await expect(created).toContainText('a draft');
    await created.getByRole('link').click();
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('draft');
    await expect(page.getByTestId('order-patient')).toContainText('No patient chosen yet.');
    await page.getByRole('button', { name: 'Resolve draft' }).click();
    await page.getByRole('combobox', { name: 'Patient' }).selectOption({ label: 'Alvarez, Maria (1985-04-12, CA)' });
    await page.getByRole('button', { name: 'Resolve', exact: true }).click();
    await expect(page.getByTestId('order-action-status')).toHaveText('Resolved: the order now waits for a provider’s approval.');
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('awaiting approval');
    await expect(page.getByTestId('order-patient')).toContainText('Maria Alvarez');
    await expect(page.getByTestId('timeline-change')).toHaveText(['created draft', 'draft → awaiting approval']);
    await expect(page.getByRole('button', { name: 'Approve' })).toBeDisabled();

    // Declining Rx rejected the Tirzepatide order: reroute it (Sunrise is next best), then submit it.
    await page.goto(`/orders/${clinic.tirz}`);
    await waitForStatus(page, 'rejected');
    // The reason in words (the pharmacy protocol's vocabulary), its code beside them.
    await expect(page.getByTestId('order-rejection')).toHaveText('Prescription cannot be filled prescription_invalid');
    await expect(page.getByTestId('order-pharmacy-name')).toHaveText('Declining Rx');
    await expect(page.getByTestId('timeline-row').last()).toContainText('prescription_invalid');
    await page.getByRole('button', { name: 'Reroute' }).click();
    await expect(page.getByTestId('order-action-status')).toHaveText('Rerouted to Sunrise Compounding. Submit it to send it there.');
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('approved');
    await expect(page.getByTestId('order-pharmacy-name')).toHaveText('Sunrise Compounding');
    await expect(page.getByTestId('order-routing-ineligible').filter({ hasText: 'Declining Rx' })).toContainText('already_tried');
    await page.getByRole('button', { name: 'Submit to pharmacy' }).click();
    await expect(page.getByTestId('order-action-status')).toHaveText('Submitted: the order is now submitted.');
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('submitted');
    await expect(page.getByTestId('order-routing-reason')).toHaveText('rerouted');
    await expect(page.getByTestId('timeline-change')).toHaveText([
      'created awaiting approval',
      'awaiting approval → approved',
      'approved → sending to the pharmacy',
      'sending to the pharmacy → submitted',
      'submitted → rejected',
      'rejected → approved',
      'approved → sending to the pharmacy',
      'sending to the pharmacy → submitted',
    ]);
    await expect(page.getByTestId('timeline-row').nth(5)).toContainText('rerouted');
    await shoot(page, 'order-detail');

    // Submitted is in flight: the page keeps reading the order, so a change made elsewhere (a cancel
    // through the API) shows up without a reload.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const cancelled = await fetch(`${base()}/v1/orders/${clinic.tirz}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${clinic.key}` } });
    expect(cancelled.status).toBe(201);
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('cancelled', { timeout: 10_000 });
    // (The pharmacy's answer to the cancel request may follow as a note of its own.)
    await expect(page.getByTestId('timeline-change').filter({ hasText: 'submitted → cancelled' })).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // The list updates by itself too: a submitted order (in flight) shown there turns cancelled.
    await page.goto('/orders');
    const onList = rows.filter({ hasText: clinic.sema });
    await expect(onList.getByTestId('order-status')).toHaveText('submitted');
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const cancelledSema = await fetch(`${base()}/v1/orders/${clinic.sema}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${clinic.key}` } });
    expect(cancelledSema.status).toBe(201);
    await expect(onList.getByTestId('order-status')).toHaveText('cancelled', { timeout: 10_000 });
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

    // Cancelling asks first; keeping the order changes nothing.
    await page.goto(`/orders/${clinic.texas}`);
    await page.getByRole('button', { name: 'Cancel order' }).click();
    const cancelDialog = page.getByRole('dialog', { name: 'Cancel this order for June Carter?' });
    await cancelDialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect(cancelDialog).toBeHidden();
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('awaiting approval');
    await page.getByRole('button', { name: 'Cancel order' }).click();
    await cancelDialog.getByRole('button', { name: 'Yes, cancel order' }).click();
    await expect(page.getByTestId('order-action-status')).toHaveText('Order cancelled (cancelled).');
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('cancelled');
    await expect(page.getByTestId('timeline-change').last()).toHaveText('awaiting approval → cancelled');
    await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);

    // Patients by name, ids small beside them.
    await nav(page, 'Patients');
    await expect(page.getByTestId('patient-row').filter({ hasText: 'Alvarez, Maria' })).toContainText(/pat_/);
    await shoot(page, 'patients-list');
  });

  test('a developer reads orders without patient details and cannot approve or create', async ({ page }) => {
    await signInWithPassword(page, clinic.developerEmail);
    await expect(page).toHaveURL(/\/console$/);
    await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Orders', exact: true })).toBeVisible();
    await openQueue(page);
    // The draft resolved and the order created by the admin wait; the developer sees ids, not patients.
    const rows = page.getByTestId('approval-row');
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) {
      await expect(row.getByTestId('approval-patient')).toHaveText('Not shown to your role');
      await expect(row.getByRole('button', { name: 'Approve' })).toBeDisabled();
      await expect(row.getByTestId('approve-blocked-reason')).toHaveText('Approving is for a provider, who sees the patient’s state; your role does not.');
    }
    await page.getByRole('navigation', { name: 'Order views' }).getByRole('link', { name: 'All orders' }).click();
    await expect(page.getByRole('button', { name: 'New order' })).toHaveCount(0);
    await page.getByTestId('order-row').filter({ hasText: clinic.sema }).getByRole('link').click();
    await expect(page.getByTestId('order-patient')).toContainText('Your role does not read patient records');
    await expect(page.getByTestId('order-patient')).not.toContainText('Maria');
    await expect(page.getByRole('button', { name: 'Cancel order' })).toHaveCount(0);
    await expect(page.getByTestId('timeline-change').first()).toHaveText('created awaiting approval');
    await expect(page.getByTestId('timeline-change').filter({ hasText: 'submitted → cancelled' })).toHaveCount(1);
    // Patients are not this role's: the page says so instead of failing.
    await page.goto('/patients');
    await expect(page.getByRole('main')).toContainText('Your role does not include reading patient records');
    await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  });
});
