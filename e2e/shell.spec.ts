import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { base } from './helpers';
import { seedClinic, signedInState, type SeededClinic } from './console-seed';

/** The console's frame around every page: navigation by role and at phone width, the mode switch, 404, favicon. */

let clinic: SeededClinic;
const states = new Map<string, BrowserContextOptions['storageState']>();

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  clinic = await seedClinic();
  for (const role of ['admin', 'provider', 'developer'] as const) {
    const email = { admin: clinic.adminEmail, provider: clinic.providerEmail, developer: clinic.developerEmail }[role];
    states.set(role, await signedInState(browser, email));
  }
});

async function openAs(browser: Browser, role: string, width = 1280) {
  const context = await browser.newContext({ storageState: states.get(role), viewport: { width, height: 800 } });
  return { context, page: await context.newPage() };
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Console' });
const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
const outlineOfFocused = (page: Page) => page.evaluate(() => (document.activeElement ? getComputedStyle(document.activeElement).outlineStyle : 'none'));

test('each role sees only the pages it can use', async ({ browser }) => {
  const expected = {
    admin: ['Overview', 'Go live', 'Orders', 'Intake', 'Products', 'Questionnaires', 'Flows', 'Embed keys', 'Pharmacies', 'Routing', 'Patients', 'Patient notices', 'Webhooks', 'Events', 'API keys', 'Team', 'Usage', 'Billing', 'Account'],
    developer: ['Overview', 'Orders', 'Webhooks', 'Events', 'API keys', 'Usage', 'Account'],
    provider: ['Overview', 'Orders', 'Intake', 'Questionnaires', 'Flows', 'Patients', 'Account'],
  };
  for (const [role, links] of Object.entries(expected)) {
    const { context, page } = await openAs(browser, role);
    await page.goto('/console');
    await expect(nav(page).getByRole('link'), role).toHaveText(links);
    await expect(nav(page).getByRole('link', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    await context.close();
  }
});

test('at 1280 px the navigation is a sidebar beside the page, with the mode banner above', async ({ browser }) => {
  const { context, page } = await openAs(browser, 'admin');
  await page.goto(`/orders/${clinic.orderId}`);
  await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
  await expect(nav(page)).toBeVisible();
  // The order page belongs to Orders.
  await expect(nav(page).getByRole('link', { name: 'Orders' })).toHaveAttribute('aria-current', 'page');
  await page.goto('/console');
  await expect(page.getByTestId('mode-banner')).toHaveText(/Sandbox mode/);
  await expect(page.getByTestId('tenant-name')).toHaveText(clinic.tenantName);
  await expect(page.getByRole('banner').getByText(clinic.adminEmail)).toBeVisible();
  await page.screenshot({ path: 'docs/screenshots/shell-1280.png', fullPage: true });
  await context.close();
});

test('at 390 px the navigation folds behind a menu button that works from the keyboard, and nothing scrolls sideways', async ({ browser }) => {
  const { context, page } = await openAs(browser, 'admin', 390);
  await page.goto('/console');
  const menu = page.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav(page)).toBeHidden();
  await expect(page.getByRole('group', { name: 'Mode' })).toBeVisible();
  await expect(page.getByTestId('mode-banner')).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'docs/screenshots/shell-390.png', fullPage: true });

  // Skip link first, then the mode switch, then the menu button.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(menu).toBeFocused();
  expect(await outlineOfFocused(page)).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav(page)).toBeVisible();
  await expect(nav(page).getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: 'docs/screenshots/shell-390-nav-open.png', fullPage: true });

  // The links follow the button in tab order; Escape folds the menu and hands focus back.
  await page.keyboard.press('Tab');
  await expect(nav(page).getByRole('link', { name: 'Overview' })).toBeFocused();
  expect(await outlineOfFocused(page)).not.toBe('none');
  await page.keyboard.press('Escape');
  await expect(nav(page)).toBeHidden();
  await expect(menu).toBeFocused();

  // Following a link lands on its page with the menu folded again.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(nav(page).getByRole('link', { name: 'Orders' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/orders$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav(page)).toBeHidden();
  await context.close();
});

test('the skip link moves focus to the page content', async ({ browser }) => {
  const { context, page } = await openAs(browser, 'provider');
  await page.goto('/console');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await context.close();
});

test('the mode switch is visible at 390 px and switches with the keyboard, the banner changing colour and words', async ({ browser }) => {
  const { context, page } = await openAs(browser, 'admin', 390);
  await page.goto('/console');
  const mode = page.getByRole('group', { name: 'Mode' });
  const banner = page.getByTestId('mode-banner');
  await expect(mode.getByRole('button', { name: 'Sandbox' })).toHaveAttribute('aria-pressed', 'true');
  const sandboxColour = await banner.evaluate((el) => getComputedStyle(el).backgroundColor);

  await mode.getByRole('button', { name: 'Live' }).focus();
  expect(await outlineOfFocused(page)).not.toBe('none');
  await page.keyboard.press('Space');
  await expect(mode.getByRole('button', { name: 'Live' })).toHaveAttribute('aria-pressed', 'true');
  await expect(banner).toHaveText(/Live mode/);
  expect(await banner.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(sandboxColour);
  await page.screenshot({ path: 'docs/screenshots/shell-390-live.png', fullPage: true });

  await mode.getByRole('button', { name: 'Sandbox' }).focus();
  await page.keyboard.press('Enter');
  await expect(banner).toHaveText(/Sandbox mode/);
  await context.close();
});

test('an unknown console address shows the console 404 inside the shell, with a way back', async ({ browser }) => {
  const { context, page } = await openAs(browser, 'admin');
  for (const path of ['/console/no-such-page', `/orders/${clinic.orderId}/nothing-here`, '/nowhere']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
    await expect(nav(page)).toBeVisible();
  }
  await page.screenshot({ path: 'docs/screenshots/not-found-1280.png', fullPage: true });
  await page.getByRole('link', { name: 'Back to Overview' }).click();
  await expect(page).toHaveURL(/\/console$/);
  await context.close();

  // Someone signed out is asked to sign in first, as on every console address.
  const visitor = await browser.newContext();
  const anon = await visitor.newPage();
  await anon.goto('/nowhere');
  await expect(anon).toHaveURL(/\/login$/);
  await visitor.close();
});

test('the favicon is served and linked from every page', async ({ page }) => {
  const res = await fetch(`${base()}/icon.svg`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('image/svg+xml');
  expect(await res.text()).toContain('<svg');
  await page.goto('/login');
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /\/icon\.svg/);
});

// Before React owns the page a click does nothing and what is typed is replaced at hydration (a "Live" ignored, a
// typed 40 turned back into 7): every control waits, disabled, until then; the links work as plain links.
test('before the page is hydrated every control is disabled and the links still lead on', async ({ browser }) => {
  const context = await browser.newContext({ storageState: states.get('admin'), javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/billing');
  await expect(page.getByRole('group', { name: 'Mode' }).getByRole('button', { name: 'Live' })).toBeDisabled();
  await expect(page.getByLabel('Days to move forward')).toBeDisabled();
  const enabled = await page.evaluate(() => [...document.querySelectorAll('button, input, select, textarea')].filter((e) => !e.matches(':disabled')).map((e) => e.outerHTML.slice(0, 120)));
  expect(enabled).toEqual([]);
  await nav(page).getByRole('link', { name: 'Usage' }).click();
  await expect(page).toHaveURL(/\/usage$/);
  await context.close();
});
