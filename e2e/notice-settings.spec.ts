import { expect, test, type Browser, type BrowserContextOptions } from '@playwright/test';
import { ops, PASSWORD } from './helpers';
import { signedInState } from './console-seed';
import { seriousAxeProblems } from './axe';

/**
 * The console's Patient notices page (DESIGN decision 41) at 1280 and 390 px: the milestones × channels switches,
 * sender name and support contact, and a preview that follows the form as it is typed (a name holding markup shown
 * as text); saving keeps the choices; axe finds no serious or critical violation.
 */

let ownerState: BrowserContextOptions['storageState'];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Riverside Notices Clinic' });
  const owner = `owner-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: owner, password: PASSWORD, role: 'owner' });
  ownerState = await signedInState(browser, owner);
});

async function openAs(browser: Browser, width: number) {
  const context = await browser.newContext({ storageState: ownerState, viewport: { width, height: 900 } });
  return { context, page: await context.newPage() };
}

for (const width of [1280, 390]) {
  test(`the settings and their live preview at ${width} px`, async ({ browser }) => {
    const { context, page } = await openAs(browser, width);
    await page.goto('/settings/notices');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Patient notices', level: 1 })).toBeVisible();
    // The defaults: e-mail on for every milestone, SMS off.
    await expect(page.getByTestId('switch-order_shipped-email')).toBeChecked();
    await expect(page.getByTestId('switch-order_shipped-sms')).not.toBeChecked();
    await expect(page.getByTestId('preview-subject')).toHaveText('[Sandbox] Riverside Notices Clinic: Your order has shipped');

    // The preview follows the form, and shows markup as text.
    await page.getByTestId('sender-name').fill('Riverside <b>Care</b>');
    await page.getByTestId('support-contact').fill('care@riverside.example');
    await expect(page.getByTestId('preview-subject')).toHaveText('[Sandbox] Riverside <b>Care</b>: Your order has shipped');
    await expect(page.getByTestId('preview-text')).toContainText('Questions? Contact Riverside <b>Care</b>: care@riverside.example');
    await expect(page.getByTestId('preview-text')).toContainText('Carrier: UPS');
    await page.getByTestId('preview-channel').selectOption('sms');
    await expect(page.getByTestId('preview-subject')).toHaveCount(0);
    await expect(page.getByTestId('preview-text')).toContainText('[Sandbox] Riverside <b>Care</b>: Your order has shipped.');
    await page.getByTestId('preview-milestone').selectOption('needs_attention');
    await expect(page.getByTestId('preview-text')).toContainText('Your order needs attention.');

    await page.getByTestId('switch-order_shipped-sms').check();
    await page.getByRole('button', { name: 'Save notice settings' }).click();
    await expect(page.getByTestId('notice-settings-status')).toContainText('Notice settings saved');
    await page.reload();
    await expect(page.getByTestId('switch-order_shipped-sms')).toBeChecked();
    await expect(page.getByTestId('sender-name')).toHaveValue('Riverside <b>Care</b>');

    expect(await seriousAxeProblems(page, { include: 'main' })).toEqual([]);
    const overflow = await main.evaluate((m) => m.scrollWidth - m.clientWidth);
    expect(overflow, `the notices page at ${width} px overflows its column`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `docs/screenshots/patient-notices-${width}.png`, fullPage: true });

    // Put the defaults back for the other width's run.
    await page.getByTestId('switch-order_shipped-sms').uncheck();
    await page.getByTestId('sender-name').fill('');
    await page.getByTestId('support-contact').fill('');
    await page.getByRole('button', { name: 'Save notice settings' }).click();
    await expect(page.getByTestId('notice-settings-status')).toContainText('Notice settings saved');
    await context.close();
  });
}
