import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { seriousAxeProblems } from './axe';
import { api } from './console-seed';
import { base, ops, PASSWORD, signInWithPassword } from './helpers';

/**
 * Issue 50, item 3 (DESIGN decision 45): the provider's approval view shows what gets prescribed — the protocol
 * by name, each product with its strength, quantity, sig and refills — and each item's identity fact, beside
 * the word diff, at 1280 px and at 390 px with no serious axe violation. Approving v3 while v2 waits
 * supersedes v2: it leaves the queue at once and for good, its state is said in words, and the API refuses it.
 * The clinic is set up through the API.
 */

const KEY = 'glp1-approval-view';
// The one US states list (server/lib/us-states.ts) that a `fact: state` item must offer, by code.
const STATES = (
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA PR RI SC SD TN TX UT VT VA WA WV WI WY'
).split(' ');

const doc = (protocolId: string, extra: { title?: string; items?: object[] } = {}) => ({
  key: KEY,
  title: extra.title ?? 'GLP-1 consultation',
  protocolId,
  items: [
    { linkId: 'dob', text: 'What is your date of birth?', type: 'date', required: true, fact: 'dateOfBirth' },
    { linkId: 'sex', text: 'What sex were you assigned at birth?', type: 'choice', required: true, options: [{ value: 'female', label: 'Female' }, { value: 'male', label: 'Male' }], fact: 'sexAtBirth' },
    { linkId: 'height', text: 'How tall are you?', type: 'integer', required: true, min: 36, max: 96, unit: 'in' },
    { linkId: 'weight', text: 'How much do you weigh?', type: 'decimal', required: true, min: 60, max: 800, unit: 'lb' },
    ...(extra.items ?? []),
  ],
  rules: [
    { id: 'under_18', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'This treatment is for adults 18 and over.' },
    { id: 'bmi_low', when: { q: 'bmi(height, weight)', op: 'lt', value: 27 }, effect: 'disqualify', patientMessage: 'Medication is prescribed for a BMI of 27 or more.' },
  ],
});

interface World {
  key: string;
  providerToken: string;
  v2: string;
  v3: string;
}

async function setUp(): Promise<World & { providerEmail: string; mfaSecret: string }> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const tenant = await ops<{ id: string }>('/ops/tenants', { name: 'Approval View Clinic' });
  const providerEmail = `provider-${stamp}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email: providerEmail, password: PASSWORD, role: 'provider', name: 'Dr. Ada Okafor', npi: '1234567893', npiVerified: true, licensedStates: ['CA'] });
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${tenant.id}`, { name: 'e2e approval view setup' });
  const sema = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: 'SEMA-025', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const needles = await api<{ id: string }>(key, 'POST', '/products', { name: 'Pen needles 32G', sku: 'NDL-32G', form: 'device', rxRequired: false, active: true });
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', {
    name: 'GLP-1 start, month one',
    items: [
      { productId: sema.id, quantity: 4, sig: 'Inject 0.25 mg under the skin once weekly', refills: 2 },
      { productId: needles.id, quantity: 100, sig: 'Use one new needle per injection', refills: 0 },
    ],
  });
  const login = await api<{ accessToken: string }>('', 'POST', '/auth/login', { email: providerEmail, password: PASSWORD });
  const enroll = await api<{ secret: string }>(login.accessToken, 'POST', '/auth/mfa/enroll', {});
  await api(login.accessToken, 'POST', '/auth/mfa/verify', { code: await freshTotp(enroll.secret) });
  // v1 in use; v2 and v3 wait, each adding a question.
  const v1 = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', doc(protocol.id));
  await api(login.accessToken, 'POST', `/intake/questionnaires/${v1.id}/approve`, {});
  const pregnant = { linkId: 'pregnant', text: 'Are you pregnant or breastfeeding?', type: 'boolean', required: true };
  const state = { linkId: 'home', text: 'Which state do you live in?', type: 'choice', required: true, options: STATES.map((value) => ({ value, label: value })), fact: 'state' };
  const v2 = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', doc(protocol.id, { items: [pregnant] }));
  const v3 = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', doc(protocol.id, { items: [pregnant, state] }));
  return { key, providerToken: login.accessToken, providerEmail, mfaSecret: enroll.secret, v2: v2.id, v3: v3.id };
}

async function noSeriousViolations(page: Page, label: string) {
  await page.waitForLoadState('networkidle');
  expect.soft(await seriousAxeProblems(page), `axe on ${label}`).toEqual([]);
}

async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** No API token reaches the screen: states are said in words. */
async function noRawStates(page: Page) {
  const text = await page.getByRole('main').innerText();
  for (const token of ['pending_approval', 'superseded', 'supersededBy']) expect(text, token).not.toContain(token);
  expect(text).not.toMatch(/\bpending\b(?! approval)/);
}

const pendingCard = (page: Page, id: string) => page.locator(`[data-testid="pending-questionnaire"][data-id="${id}"]`);

/** The approval view of `id` shows the protocol, line by line, and the identity facts. */
async function showsWhatIsPrescribed(page: Page, id: string, facts: string[]) {
  const card = pendingCard(page, id);
  const prescribes = card.getByTestId('questionnaire-prescribes');
  await expect(prescribes.getByTestId('protocol-name')).toHaveText('GLP-1 start, month one');
  const lines = prescribes.getByTestId('protocol-line');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0).getByTestId('protocol-product')).toHaveText('Semaglutide 0.25 mg, injection');
  await expect(lines.nth(0).getByTestId('protocol-quantity')).toHaveText('4');
  await expect(lines.nth(0).getByTestId('protocol-sig')).toHaveText('Inject 0.25 mg under the skin once weekly');
  await expect(lines.nth(0).getByTestId('protocol-refills')).toHaveText('2');
  await expect(lines.nth(1).getByTestId('protocol-product')).toHaveText('Pen needles 32G, device');
  await expect(lines.nth(1).getByTestId('protocol-quantity')).toHaveText('100');
  await expect(lines.nth(1).getByTestId('protocol-sig')).toHaveText('Use one new needle per injection');
  await expect(lines.nth(1).getByTestId('protocol-refills')).toHaveText('0');
  await expect(prescribes.getByTestId('identity-fact')).toHaveText(facts);
  // Beside the word diff against the version in use; the status in words.
  await expect(card.getByTestId('questionnaire-diff')).toContainText('From v1 (in use)');
  await expect(card.getByTestId('questionnaire-status')).toHaveText('pending approval');
}

test.describe.serial('questionnaire approval shows what gets prescribed', () => {
  let world: World;
  let state: BrowserContextOptions['storageState'];
  const open = async (browser: Browser, width: number) => {
    const context = await browser.newContext({ storageState: state, viewport: { width, height: 900 } });
    return { context, page: await context.newPage() };
  };

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    const w = await setUp();
    world = w;
    const context = await browser.newContext();
    const page = await context.newPage();
    await signInWithPassword(page, w.providerEmail);
    await page.getByLabel('Authentication code').fill(await freshTotp(w.mfaSecret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
    state = await context.storageState();
    await context.close();
  });

  test('the pending view names the protocol’s products with strength, quantity, sig and refills, and the identity facts, at 1280 and 390 px', async ({ browser }) => {
    const v2Facts = ['“What is your date of birth?” is the patient’s date of birth', '“What sex were you assigned at birth?” is the patient’s sex at birth'];
    const v3Facts = [...v2Facts, '“Which state do you live in?” is the patient’s state of residence'];
    for (const width of [1280, 390]) {
      const { context, page } = await open(browser, width);
      await page.goto('/intake/questionnaires/pending');
      await showsWhatIsPrescribed(page, world.v2, v2Facts);
      await showsWhatIsPrescribed(page, world.v3, v3Facts);
      // The identity fact is said with the question too, and so in the diff's words.
      await expect(pendingCard(page, world.v3).getByTestId('diff-item').filter({ hasText: 'Which state do you live in?' })).toContainText('identity fact: the patient’s state of residence');
      await expect(pendingCard(page, world.v3).getByTestId('supersedes-note')).toHaveText(
        'Approving v3 also takes version 2 of this questionnaire out of this list: it can then no longer be approved.',
      );
      await expect(pendingCard(page, world.v2).getByTestId('supersedes-note')).toHaveCount(0);
      await noRawStates(page);
      await fitsWidth(page, width);
      await noSeriousViolations(page, `pending questionnaires at ${width}px`);
      await page.screenshot({ path: `test-results/questionnaire-approval-${width}.png`, fullPage: true });
      await context.close();
    }
  });

  test('approving v3 supersedes v2: it leaves the queue, is said in words in the library, and the API refuses it', async ({ browser }) => {
    const { context, page } = await open(browser, 1280);
    await page.goto('/intake/questionnaires/pending');
    const v3 = pendingCard(page, world.v3);
    await v3.getByRole('button', { name: /^Approve/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Approve questionnaire' }).click();
    await expect(page.getByTestId('questionnaire-approved')).toHaveText(
      `Approved: version 3 of ${KEY} is now the one patients answer; the previous version is retired. Version 2 no longer waits for approval: replaced by version 3.`,
    );
    await expect(pendingCard(page, world.v3)).toHaveCount(0);
    await expect(pendingCard(page, world.v2)).toHaveCount(0);
    await expect(page.getByTestId('pending-empty')).toBeVisible();
    await context.close();

    // Read afresh, at phone width: v2 is not in the queue, and the library says what became of it.
    const phone = await open(browser, 390);
    await phone.page.goto('/intake/questionnaires/pending');
    await expect(phone.page.getByTestId('pending-empty')).toBeVisible();
    await expect(phone.page.getByTestId('pending-questionnaire')).toHaveCount(0);
    await noSeriousViolations(phone.page, 'pending questionnaires after approval at 390px');
    await phone.page.goto(`/intake/questionnaires/${KEY}?version=2`);
    const row = (v: number) => phone.page.locator(`[data-testid="version-row"][data-version="${v}"]`).getByTestId('questionnaire-status');
    await expect(row(3)).toHaveText('approved');
    await expect(row(2)).toHaveText('replaced by v3 before approval');
    await expect(row(1)).toHaveText('retired');
    await expect(phone.page.getByTestId('superseded-note')).toContainText('Never approved: version 3 was approved while it waited');
    // The version page names what it prescribes too.
    await expect(phone.page.getByTestId('questionnaire-prescribes').getByTestId('protocol-name')).toHaveText('GLP-1 start, month one');
    await noRawStates(phone.page);
    await fitsWidth(phone.page, 390);
    await noSeriousViolations(phone.page, 'questionnaire versions at 390px');
    await phone.page.screenshot({ path: 'test-results/questionnaire-superseded-390.png', fullPage: true });
    await phone.context.close();

    // The server refuses v2 with a clear 409.
    const res = await fetch(`${base()}/v1/intake/questionnaires/${world.v2}/approve`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.providerToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('questionnaire_superseded');
    expect(body.error.message).toContain('superseded when version 3 was approved');
  });
});
