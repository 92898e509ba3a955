import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { seriousAxeProblems } from './axe';
import { api, base, ops, PASSWORD, signInWithPassword } from './helpers';

/**
 * The patient portal (DESIGN decisions 39, 40) on a phone-sized screen: a patient signs in with their e-mail and
 * date of birth, then with the mailed link or by typing the mailed code, reads an order's tracking, and moves
 * another order to a new state; the provider then finds that order back in the console's approval queue with
 * the reason `shipping_state_changed`. Every portal page is checked with axe, talks to no one but this service,
 * and shows what the clinic stored as text.
 */

interface World {
  embedKey: string;
  email: string;
  shippedOrder: string;
  pendingOrder: string;
  providerEmail: string;
  totpSecret: string;
}

/** A clinic (sandbox) with a pharmacy that ships at once, a patient with one order shipped and one awaiting approval. */
async function setUp(): Promise<World> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Bayview Health' });
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Okafor', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e portal setup' });
  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: 'SEMA-025', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const pharmacy = await api<{ id: string }>(key, 'POST', '/pharmacies', {
    name: 'Express Rx',
    adapter: 'simulated',
    settings: { acceptAfterSeconds: 0, shipAfterSeconds: 0, deliverAfterSeconds: 259200, carrier: 'USPS' },
    states: ['CA', 'TX'],
  });
  const catalog = await api<{ id: string }>(key, 'POST', `/catalogs/upload?pharmacyConnectionId=${pharmacy.id}`, 'sku,item_code,price_cents,stock,eta_days\nSEMA-025,EXP-1,12900,100,3', 'text/csv');
  await api(key, 'PATCH', `/catalogs/${catalog.id}/approve`, {});
  const email = `maria-${stamp}@example.org`;
  // Markup in a stored address must come back as text on every page.
  const patient = await api<{ id: string }>(key, 'POST', '/patients', {
    firstName: 'Maria',
    lastName: 'Alvarez',
    dateOfBirth: '1985-04-12',
    sex: 'female',
    email,
    address: { line1: '100 Main St', line2: '<b>Unit 5</b>', city: 'San Diego', state: 'CA', postalCode: '92101' },
  });
  // The key first: the "shipped" notice links to the portal of the mode's active key (DESIGN decision 41).
  const embed = await api<{ id: string }>(key, 'POST', '/embed-keys', { name: 'Portal', allowedOrigins: [] });
  const order = async () => (await api<{ id: string }>(key, 'POST', '/orders', { patientId: patient.id, items: [{ productId: product.id, quantity: 4, sig: 'Inject 0.25 mg once weekly', refills: 2 }] })).id;
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  const shippedOrder = await order();
  await api(login.accessToken, 'POST', `/orders/${shippedOrder}/approve`, {});
  await expect(async () => expect((await api<{ status: string }>(key, 'GET', `/orders/${shippedOrder}`)).status).toBe('shipped')).toPass({ timeout: 30_000 });
  const pendingOrder = await order();
  return { embedKey: embed.id, email, shippedOrder, pendingOrder, providerEmail, totpSecret: enroll.secret };
}

/** The sign-in mails in the outbox to `to`, oldest first (the clinic's other notices are not counted). */
function signInMails(to: string): { subject: string; text: string; link: string }[] {
  const dir = process.env.E2E_MAIL_DIR!;
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
    .filter((m) => m.to === to && m.subject.startsWith('Your sign-in code'));
}

const mailsTo = (to: string) => signInMails(to).length;

/** The link to the portal in the "shipped" notice mailed to `to` (DESIGN decision 41), once the worker sent it. */
async function shippedNoticeLink(to: string): Promise<{ text: string; portal: string }> {
  const dir = process.env.E2E_MAIL_DIR!;
  const shipped = () =>
    (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
      .find((m) => m.to === to && / Your order has shipped$/.test(m.subject));
  await expect.poll(() => Boolean(shipped()), { timeout: 20_000 }).toBe(true);
  const mail = shipped();
  return { text: mail.text, portal: /(https?:\/\/\S+\/p\/[\w-]+)/.exec(mail.text)![1] };
}

/** The newest sign-in mail to `to` once there are more than `before` (the worker sends it after the answer). */
async function nextSignInMail(to: string, before: number): Promise<{ text: string; link: string; code: string }> {
  await expect.poll(() => signInMails(to).length, { timeout: 20_000 }).toBeGreaterThan(before);
  const mail = signInMails(to).at(-1)!;
  return { ...mail, code: /\n {4}(\d{6})\n/.exec(mail.text)![1] };
}

async function expectAccessible(page: Page) {
  expect(await seriousAxeProblems(page)).toEqual([]);
}

/** The page at 1280 and 390 px wide, into docs/screenshots/<name>-<width>.png, then back to the phone. */
async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expectAccessible(page);
    await page.screenshot({ path: `docs/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

/** Step 1 of sign-in, by keyboard: the e-mail, the date of birth, Enter. */
async function askForCode(page: Page, world: World) {
  await page.goto(`/p/${world.embedKey}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to see your orders' })).toBeVisible();
  await page.getByLabel('E-mail address').focus();
  await page.keyboard.type(world.email);
  await page.getByLabel('Date of birth').fill('1985-04-12');
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('6-digit code')).toBeFocused();
}

test.describe.serial('the patient portal', () => {
  let world: World;

  test.beforeAll(async () => {
    world = await setUp();
  });

  test('a patient on a 390 px phone signs in with the mailed link and reads the tracking of their order', async ({ page, context }) => {
    const outside: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== new URL(base()).origin) outside.push(r.url());
    });
    await page.setViewportSize({ width: 390, height: 844 });
    // The patient starts from the "shipped" notice: it names the clinic and links to the portal, nothing clinical.
    const notice = await shippedNoticeLink(world.email);
    expect(notice.text).toContain('Bayview Health');
    expect(notice.text).not.toMatch(/Maria|1985|Unit 5/);
    expect(notice.portal).toBe(`${base()}/p/${world.embedKey}`);
    await page.goto(notice.portal);
    await expect(page.getByText('Bayview Health')).toBeVisible();
    await expect(page.getByText('Test mode: this is a sandbox portal')).toBeVisible();
    // Rendered by the custom server and hydrated by its one script: nothing of Next.js's client runtime.
    await expect(page.locator('script[src^="/_fr/portal-page-"]')).toHaveCount(1);
    await expect(page.locator('script[src*="/_next/"]')).toHaveCount(0);
    await expectAccessible(page);

    const before = mailsTo(world.email);
    await askForCode(page, world);
    await expect(page.getByRole('status')).toContainText('a 6-digit code is on its way');
    await expectAccessible(page);
    const mail = await nextSignInMail(world.email, before);
    expect(mail.text).toContain('Bayview Health');
    expect(mail.text).not.toContain('Maria');

    // The one-click link signs in, in this browser, and lands on the portal.
    await page.goto(mail.link);
    await expect(page).toHaveURL(new RegExp(`/p/${world.embedKey}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Maria' })).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === 'fr_patient');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: `/p/${world.embedKey}` });
    await expect(page.getByTestId('portal-order')).toHaveCount(2);
    await expect(page.getByText('<b>Unit 5</b>')).toBeVisible();
    await shoot(page, 'portal-home');

    // The shipped order: its words, carrier, tracking number and link, medication and sig, pharmacy and timeline.
    const shipped = page.getByTestId('portal-order').filter({ hasText: 'On its way' });
    await shipped.getByRole('link', { name: /^Order details/ }).click();
    await expect(page).toHaveURL(new RegExp(`/p/${world.embedKey}/orders/${world.shippedOrder}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Semaglutide 0.25 mg' })).toBeVisible();
    await expect(page.getByTestId('order-next-step')).toContainText('Follow it with the tracking link');
    await expect(page.getByTestId('tracking-number')).toHaveText(/^SIM\d{18}$/);
    await expect(page.getByRole('link', { name: 'Track your package with USPS' })).toHaveAttribute('href', /^https:\/\/tools\.usps\.com\//);
    await expect(page.getByText('Inject 0.25 mg once weekly')).toBeVisible();
    await expect(page.getByText('Filled by Express Rx')).toBeVisible();
    await expect(page.getByText('This order has gone to the pharmacy')).toBeVisible();
    await shoot(page, 'portal-order');

    // Someone else's order is not there.
    const other = await page.goto(`/p/${world.embedKey}/orders/ord_00000000000000000000000000`);
    expect(other?.status()).toBe(404);

    await page.goto(`/p/${world.embedKey}`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to see your orders' })).toBeVisible();
    // The link was single use.
    await page.goto(mail.link);
    await expect(page.getByRole('main').getByRole('alert')).toContainText('not valid');
    expect(outside).toEqual([]);
  });

  test('a patient types the code and moves an order to another state; the provider finds it back for approval', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const before = mailsTo(world.email);
    await askForCode(page, world);
    const mail = await nextSignInMail(world.email, before);
    await page.keyboard.type(mail.code);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Hello, Maria' })).toBeVisible();

    const pending = page.getByTestId('portal-order').filter({ hasText: 'Waiting for provider review' });
    await pending.getByRole('link', { name: /^Order details/ }).click();
    await expect(page).toHaveURL(new RegExp(`/orders/${world.pendingOrder}$`));
    await expect(page.getByLabel('Apartment, suite or unit (optional)')).toHaveValue('<b>Unit 5</b>');
    await expectAccessible(page);
    await page.getByLabel('Street address').fill('500 Congress Ave');
    await page.getByLabel('Apartment, suite or unit (optional)').fill('');
    await page.getByLabel('City').fill('Austin');
    await page.getByLabel('State').selectOption('TX');
    await page.getByLabel('ZIP code').fill('78701');
    await page.getByRole('button', { name: 'Save shipping address' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toContainText('a provider licensed there reviews your order again');
    await expect(page.getByText('You changed your shipping address to another state')).toBeVisible();
    await expectAccessible(page);

    // The provider, at a desk: the order is back in the queue with the reason, and on the order's timeline.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.context().clearCookies();
    await signInWithPassword(page, world.providerEmail);
    await page.getByLabel('Authentication code').fill(await freshTotp(world.totpSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/console$/);
    await page.goto('/orders/approvals');
    const row = page.locator(`[data-testid="approval-row"][data-order-id="${world.pendingOrder}"]`);
    await expect(row.getByTestId('approval-returned')).toContainText('shipping_state_changed');
    await expect(row.getByTestId('approval-patient')).toContainText('TX');
    await page.goto(`/orders/${world.pendingOrder}`);
    const last = page.getByTestId('timeline-row').last();
    await expect(last).toContainText('shipping_state_changed');
    await expect(last).toContainText('Patient (portal)');
  });
});
