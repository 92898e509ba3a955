import { freshTotp } from '../tests/helpers/totp';
import { expect, test, type Page } from '@playwright/test';
import { api, ops, PASSWORD, signInWithPassword } from './helpers';
import { seriousAxeProblems } from './axe';

/**
 * The overview and usage pages of a clinic seeded through /v1: three orders, one of them approved by a
 * provider (so routed today), the figures on the overview, the chart drawn with its text equivalent, the
 * blocks a provider does not see, and the usage page. Screenshots at 1280 and 390 px go to docs/screenshots.
 */

interface Clinic {
  key: string;
  adminEmail: string;
  providerEmail: string;
  providerMfaSecret: string;
  waiting: string[];
}

async function setUpClinic(): Promise<Clinic> {
  const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Overview Clinic' });
  const adminEmail = `admin-${stamp}@clinic.test`;
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Okafor', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e overview setup' });

  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: 'SEMA-025', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const conn = await api<{ id: string }>(key, 'POST', '/pharmacies', { name: 'Express Rx', adapter: 'simulated', settings: { acceptAfterSeconds: 3600, shipAfterSeconds: 3600, deliverAfterSeconds: 7200 }, states: ['CA'] });
  const catalog = await api<{ id: string }>(key, 'POST', `/catalogs/upload?pharmacyConnectionId=${conn.id}`, 'sku,item_code,price_cents,stock,eta_days\nSEMA-025,EXP-1,12900,100,3', 'text/csv');
  await api(key, 'PATCH', `/catalogs/${catalog.id}/approve`, {});
  const patient = await api<{ id: string }>(key, 'POST', '/patients', { firstName: 'Maria', lastName: 'Alvarez', dateOfBirth: '1985-04-12', sex: 'female', address: { line1: '100 Main St', city: 'San Diego', state: 'CA', postalCode: '92101' } });
  const order = async () => (await api<{ id: string }>(key, 'POST', '/orders', { items: [{ productId: product.id, quantity: 1, sig: 'Inject 0.25 mg once weekly' }], patientId: patient.id })).id;
  const routed = await order();
  const waiting = [await order(), await order()];

  // The provider enrolls in MFA through the API and approves one order: it is routed today.
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  const approved = await api<{ status: string }>(login.accessToken, 'POST', `/orders/${routed}/approve`, {});
  expect(approved.status).toBe('submitted');
  return { key, adminEmail, providerEmail, providerMfaSecret: enroll.secret, waiting };
}

/** No serious or critical accessibility violation in the page's own content. */
async function expectAccessible(page: Page) {
  expect(await seriousAxeProblems(page, { include: 'main', tags: null })).toEqual([]);
}

/** Each chart has redrawn at its box's width (Recharts measures its box in a ResizeObserver callback, after the resize). */
async function chartsRedrawn(page: Page) {
  const fitted = () =>
    page.getByTestId('daily-chart').evaluateAll((boxes) =>
      boxes.every((box) => {
        const drawing = box.querySelector('svg.recharts-surface');
        return drawing !== null && Math.abs(drawing.getBoundingClientRect().width - box.clientWidth) < 1;
      }),
    );
  await expect.poll(fitted, { message: 'every chart redrawn at the width of its box' }).toBe(true);
}

async function shoot(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await chartsRedrawn(page);
    // The page's own content never overflows its column (the navigation is the shell's business).
    const overflow = await page.getByRole('main').evaluate((main) => main.scrollWidth - main.clientWidth);
    expect(overflow, `${name} at ${width} px overflows its column`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `docs/screenshots/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test.describe.serial('overview and usage', () => {
  let clinic: Clinic;

  test.beforeAll(async () => {
    clinic = await setUpClinic();
  });

  test('the overview shows the clinic’s orders, queue, endpoints and usage, with a chart of routed orders', async ({ page }) => {
    await signInWithPassword(page, clinic.adminEmail);
    await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Overview' })).toBeVisible();

    await expect(main.getByTestId('orders-today-total')).toHaveText('3');
    await expect(main.getByTestId('orders-month-total')).toHaveText('3');
    const byStatus = main.getByRole('region', { name: 'Orders by status' });
    await expect(byStatus.getByRole('row', { name: /Awaiting approval/ })).toContainText('2');
    await expect(byStatus.getByRole('row', { name: /Submitted/ })).toContainText('1');

    const queue = main.getByRole('region', { name: 'Approval queue' });
    await expect(queue.getByTestId('approval-waiting')).toHaveText('2');
    await expect(queue.getByRole('link', { name: 'View the oldest order' })).toHaveAttribute('href', `/orders/${clinic.waiting[0]}`);

    await expect(main.getByRole('region', { name: 'Webhook endpoints' })).toContainText('No endpoints in this mode.');
    // Usage counts live orders only; this clinic's orders are sandbox ones.
    await expect(main.getByRole('region', { name: 'Usage' }).getByTestId('usage-routed')).toHaveText('0');

    const chart = main.getByRole('region', { name: 'Routed orders, last 30 days' });
    await expect(chart.locator('svg.recharts-surface')).toBeVisible();
    await expect(chart.locator('.recharts-bar-rectangle').first()).toBeAttached();
    await expect(chart.locator('figcaption')).toContainText('Orders routed: 1 in total');
    // The text equivalent: a table of every day, the last being today with its one order.
    const rows = chart.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(31);
    await expect(rows.last()).toContainText('1');

    await expectAccessible(page);
    await shoot(page, 'overview');
  });

  test('the usage page shows the plan, the cap and the mode’s counts', async ({ page }) => {
    await signInWithPassword(page, clinic.adminEmail);
    await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
    await page.goto('/usage');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Usage' })).toBeVisible();
    const usage = await api<{ plan: string; activeApiKeys: number; eventsThisPeriod: number; orderCapPerMonth?: number }>(clinic.key, 'GET', '/developer/usage');
    await expect(main.getByTestId('usage-plan')).toHaveText(usage.plan);
    await expect(main.getByTestId('usage-routed')).toHaveText('0');
    if (usage.orderCapPerMonth !== undefined) await expect(main.getByRole('progressbar')).toHaveAttribute('aria-valuemax', String(usage.orderCapPerMonth));
    await expect(main.getByTestId('usage-keys')).toHaveText(String(usage.activeApiKeys));
    await expect(main.getByTestId('usage-endpoints')).toHaveText('0');
    await expect(main.getByTestId('usage-events')).toHaveText(String(usage.eventsThisPeriod));
    expect(usage.eventsThisPeriod).toBeGreaterThan(0);
    await expect(main.locator('figure svg.recharts-surface')).toBeVisible();
    await expect(main.locator('figcaption')).toContainText('Live orders routed: 0 in total');
    await expectAccessible(page);
    await shoot(page, 'usage');
  });

  test('a provider sees the queue but not webhook endpoints or usage, and the usage page says so plainly', async ({ page }) => {
    await signInWithPassword(page, clinic.providerEmail);
    await page.getByLabel('Authentication code').fill(await freshTotp(clinic.providerMfaSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
    const main = page.getByRole('main');
    await expect(main.getByRole('region', { name: 'Approval queue' }).getByTestId('approval-waiting')).toHaveText('2');
    await expect(main.getByRole('region', { name: 'Webhook endpoints' })).toHaveCount(0);
    await expect(main.getByRole('region', { name: 'Usage' })).toHaveCount(0);
    await page.goto('/usage');
    await expect(main).toContainText('your role cannot see them');
    await expect(main.getByRole('alert')).toHaveCount(0);
  });
});
