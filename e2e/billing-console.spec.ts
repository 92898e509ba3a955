import { expect, test, type Browser, type BrowserContextOptions, type Page, type Route } from '@playwright/test';
import { ops, PASSWORD } from './helpers';
import { signedInState } from './console-seed';
import { seriousAxeProblems } from './axe';

/**
 * The console's Billing page and banner (issue 25, item 6), on a fresh clinic:
 * (a) an owner sees the plan, price, period and health in live mode (axe: no serious or critical violation);
 *     a developer sees "only owners and admins manage billing" and no Billing link;
 * (b) Upgrade to Starter opens the simulated checkout; Decline comes back with nothing changed; Pay comes back
 *     on Starter, and the usage page's plan (the cap of decision 13) follows;
 * (c) while the clinic is past due every other console page shows the banner with what is paused, the date of
 *     the next step and the way to /billing, for every role;
 * (d) in sandbox (issue 34, item 12) the page shows the billing test clock: checking out with the card that
 *     declines renewals and moving the clock 40 days takes the rehearsal account past its failed renewal into
 *     the restricted stage, shown at once with the clock's new reading.
 * For (c) the console's answer to billing.banner is replaced in the browser: the e2e server runs on its
 * own embedded database with the real clock, and no API moves a clinic into dunning before a renewal fails a
 * month later. The server side of the banner (every stage from the dunning clock, every role, tenancy) is
 * tested over /api/trpc in tests/console-billing-banner.test.ts.
 */

let ownerState: BrowserContextOptions['storageState'];
let developerState: BrowserContextOptions['storageState'];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Lakeside Billing Clinic' });
  const owner = `owner-${stamp}@clinic.test`;
  const developer = `developer-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: owner, password: PASSWORD, role: 'owner' });
  await ops(`/ops/tenants/${tenant.id}/users`, { email: developer, password: PASSWORD, role: 'developer' });
  ownerState = await signedInState(browser, owner);
  developerState = await signedInState(browser, developer);
});

async function openAs(browser: Browser, state: BrowserContextOptions['storageState'], width = 1280) {
  const context = await browser.newContext({ storageState: state, viewport: { width, height: 900 } });
  return { context, page: await context.newPage() };
}

/** Live mode, as the mode switch sets it: the live account is the one the clinic pays. */
async function goLive(page: Page) {
  await page.goto('/console');
  await page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Live' }).click();
  await expect(page.getByTestId('mode-banner')).toHaveText(/Live mode/);
}

async function expectAccessible(page: Page) {
  expect(await seriousAxeProblems(page, { include: 'main' })).toEqual([]);
}

const main = (page: Page) => page.getByRole('main');

test('an owner sees the plan, price, period and billing health of a fresh clinic', async ({ browser }) => {
  const { context, page } = await openAs(browser, ownerState);
  await goLive(page);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Billing' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(main(page).getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByTestId('billing-plan')).toHaveText('Free');
  await expect(page.getByTestId('billing-price')).toHaveText('Free');
  await expect(page.getByTestId('billing-status')).toHaveText('No subscription');
  await expect(page.getByTestId('billing-period')).toHaveText('None');
  await expect(page.getByTestId('billing-stage')).toHaveText('In good standing');
  for (const [plan, price] of [['starter', '$49.00'], ['growth', '$199.00'], ['scale', '$599.00']]) {
    await expect(page.getByTestId(`plan-${plan}`)).toContainText(price);
  }
  // Healthy: no banner anywhere.
  await expect(page.getByTestId('billing-banner')).toHaveCount(0);
  await expectAccessible(page);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await main(page).evaluate((m) => m.scrollWidth - m.clientWidth);
    expect(overflow, `billing at ${width} px overflows its column`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `docs/screenshots/billing-${width}.png`, fullPage: true });
  }
  await context.close();
});

test('a developer is told that only owners and admins manage billing, and has no Billing link', async ({ browser }) => {
  const { context, page } = await openAs(browser, developerState);
  await page.goto('/console');
  await expect(page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Billing' })).toHaveCount(0);
  await page.goto('/billing');
  await expect(page.getByTestId('no-access')).toHaveText(/Only owners and admins manage billing/);
  await expect(main(page).getByRole('alert')).toHaveCount(0);
  await expectAccessible(page);
  await context.close();
});

test('Upgrade to Starter: a declined checkout changes nothing, a paid one moves the plan and its cap', async ({ browser }) => {
  const { context, page } = await openAs(browser, ownerState);
  await goLive(page);
  await page.goto('/billing');

  await page.getByRole('button', { name: 'Upgrade to Starter' }).click();
  await expect(page).toHaveURL(/\/billing\/simulated\/checkout\//);
  await page.getByRole('button', { name: /decline/i }).click();
  await expect(page).toHaveURL(/\/billing\?checkout=declined/);
  await expect(page.getByTestId('billing-notice')).toHaveText(/declined and nothing changed/);
  await expect(page.getByTestId('billing-plan')).toHaveText('Free');

  await page.getByRole('button', { name: 'Upgrade to Starter' }).click();
  await expect(page).toHaveURL(/\/billing\/simulated\/checkout\//);
  await page.getByRole('button', { name: /^pay/i }).click();
  await expect(page).toHaveURL(/\/billing\?checkout=paid/);
  await expect(page.getByTestId('billing-notice')).toHaveText(/Payment received.*Starter plan/);
  await expect(page.getByTestId('billing-plan')).toHaveText('Starter');
  await expect(page.getByTestId('billing-price')).toHaveText('$49.00 / month');
  await expect(page.getByTestId('billing-status')).toHaveText('Active');
  await expect(page.getByTestId('billing-period')).toHaveText(/ – /);
  await expect(page.getByTestId('plan-starter')).toContainText('Your current plan');
  await expect(page.getByRole('button', { name: 'Upgrade to Growth' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByTestId('billing-notice')).toHaveCount(0);

  // The live plan is the tenant's cap (decision 13): the usage page follows at once.
  await page.goto('/usage');
  await expect(page.getByTestId('usage-plan')).toHaveText('starter');

  // A subscriber manages the card and cancellation in the provider's portal.
  await page.goto('/billing');
  await page.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page).toHaveURL(/\/billing\/simulated\/portal\//);
  await context.close();
});

test('sandbox: the test clock moves a rehearsal account with a declining card into dunning', async ({ browser }) => {
  const { context, page } = await openAs(browser, ownerState);
  await page.goto('/billing');
  await expect(page.getByTestId('mode-banner')).toHaveText(/Sandbox mode/);
  await expect(page.getByTestId('billing-test-clock')).toHaveText(/Not moved yet/);
  await page.getByRole('button', { name: 'Upgrade to Starter' }).click();
  await expect(page).toHaveURL(/\/billing\/simulated\/checkout\//);
  await page.getByRole('button', { name: /card that fails renewals/ }).click();
  await expect(page).toHaveURL(/\/billing\?checkout=paid/);
  await expect(page.getByTestId('billing-plan')).toHaveText('Starter');
  await expect(page.getByTestId('billing-stage')).toHaveText('In good standing');

  // The renewal falls about a month out: 40 days puts the account about 10 days past its declined renewal.
  await page.getByLabel('Days to move forward').fill('40');
  await page.getByRole('button', { name: 'Move the clock' }).click();
  await expect(page.getByTestId('billing-test-clock')).toHaveText(/Moved 40 days ahead/);
  await expect(page.getByTestId('billing-stage')).toHaveText('Restricted');
  await expect(page.getByTestId('billing-amount-due')).toHaveText('$49.00');
  await expectAccessible(page);
  await context.close();
});

/** Replaces the banner's answer inside the console's (possibly batched) /api/trpc response, as if the clinic were past due. */
async function pretendPastDue(page: Page, banner: { stage: string; decision: string; nextActionAt: string | null }) {
  await page.route(/\/api\/trpc\/[^?]*billing\.banner/, async (route: Route) => {
    try {
      const response = await route.fetch();
      const paths = decodeURIComponent(new URL(route.request().url()).pathname.replace(/^\/api\/trpc\//, '')).split(',');
      const index = paths.indexOf('billing.banner');
      const body = (await response.json()) as { result: { data: unknown } }[] | { result: { data: unknown } };
      const answer = { result: { data: { livemode: true, ...banner } } };
      const patched = Array.isArray(body) ? body.map((b, i) => (i === index ? answer : b)) : answer;
      await route.fulfill({ response, json: patched });
    } catch {
      // The page moved on (a full navigation) while the call was in flight: nothing left to answer.
    }
  });
}

test('while past due, other console pages show the banner with what is paused, the next step and the way to billing', async ({ browser }) => {
  const nextActionAt = '2031-05-20T09:00:00.000Z';
  const { context, page } = await openAs(browser, ownerState);
  await pretendPastDue(page, { stage: 'warning', decision: 'DEGRADE', nextActionAt });
  await page.goto('/usage');
  const banner = page.getByTestId('billing-banner');
  await expect(banner).toHaveAttribute('role', 'status');
  await expect(banner).toContainText('Live billing: Payment past due.');
  await expect(banner).toContainText('Paused now: AI generation');
  await expect(banner).toContainText('On May 20, 2031 (UTC): New approvals and new patient flow sessions pause too.');
  await expectAccessible(page);
  // The console opens in sandbox: the way to the live account switches mode first.
  await banner.getByRole('link', { name: /Switch to live mode and pay/ }).click();
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByTestId('mode-banner')).toHaveText(/Live mode/);
  // The Billing page shows all of it itself: no banner there.
  await expect(page.getByTestId('billing-banner')).toHaveCount(0);
  await context.close();

  // A suspended clinic: an alert for every role; a developer is sent to an owner or admin.
  const dev = await openAs(browser, developerState, 390);
  await pretendPastDue(dev.page, { stage: 'suspended', decision: 'BLOCK', nextActionAt: null });
  await dev.page.goto('/keys');
  const suspended = dev.page.getByTestId('billing-banner');
  await expect(suspended).toHaveAttribute('role', 'alert');
  await expect(suspended).toContainText('Live billing: Suspended.');
  await expect(suspended).toContainText('Creating orders');
  await expect(suspended).toContainText('An owner or admin of this clinic can settle it on the Billing page.');
  const scrollWidth = await dev.page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);
  await dev.page.screenshot({ path: 'docs/screenshots/billing-banner-390.png', fullPage: true });
  await dev.context.close();
});
