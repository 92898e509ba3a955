import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { freshTotp } from '../tests/helpers/totp';
import { STATUS_TOKENS } from '../components/console/ui/status-words';
import { base, ops, PASSWORD, signInWithPassword } from './helpers';
import { api, clinicWithFlow, FLOW_COPY, type FlowClinic } from './flows-world';
import { seriousAxeProblems } from './axe';

/**
 * Issue 50 item 5, provider and admin pages, each at 1280 and 390 px with no serious or critical axe violation:
 * (a) the identity side-by-side marks a fact as differing only when both sides recorded it and they differ;
 * (b) in sandbox, the review page says the synthetic person stands in for the tester and the answers are what
 *     was typed;
 * (c) the provider's overview shows the intake review queue beside the order approval queue;
 * (d) statuses in words: no console page shows a status token such as `pending_approval`;
 * (e) the analytics funnel shows, per step, how many reached it and how many completed it, and the drop-off.
 */

const WIDTHS = [1280, 390] as const;
const stamp = `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
const EMAIL = `marisol-${stamp}@example.org`;
const DOB = '1984-06-02';
const OTHER_DOB = '1990-01-15';
const ORIGIN = 'https://www.provider-pages.example';

let clinic: FlowClinic;
let embedKey: string;
let adminEmail: string;
let flagged: string;
let orderId: string;
let sandboxSubmission: string;
let providerState: BrowserContextOptions['storageState'];
let adminState: BrowserContextOptions['storageState'];

/** A run of the live flow through the public API, as a page on the clinic's site sends it, with a step_viewed beacon for each page shown. */
async function runFlow(name: string, email: string, dateOfBirth: string): Promise<string> {
  const call = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base()}/v1/public/flows/${embedKey}${path}`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    expect(res.ok, `${path}: ${await res.clone().text()}`).toBe(true);
    return res.status === 202 ? {} : res.json();
  };
  const { sessionId } = await call('/sessions', {});
  await call(`/sessions/${sessionId}/events`, { type: 'view' });
  const steps: [string, Record<string, unknown>][] = [
    ['welcome', {}],
    ['goals', { motivation: 'health' }],
    ['about', { dob: dateOfBirth, pregnant: false }],
    ['medications', { takesMeds: false }],
    ['consent', { accepted: true, version: '2026-01' }],
    ['contact', { name, email, state: 'CA', dateOfBirth, addressLine1: '9 Pine St', city: 'Oakland', postalCode: '94607', phone: '5105550188' }],
  ];
  for (const [stepId, answers] of steps) {
    await call(`/sessions/${sessionId}/events`, { type: 'step_viewed', stepId });
    await call(`/sessions/${sessionId}/steps`, { stepId, answers });
  }
  const done = await call(`/sessions/${sessionId}/submit`, { patient: { name, email } }, { 'idempotency-key': crypto.randomUUID() });
  await call(`/sessions/${sessionId}/events`, { type: 'step_viewed', stepId: 'result' });
  return done.submissionId as string;
}

/** Someone who reads the landing page, moves on to the first question and leaves there. */
async function dropAtGoals() {
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${base()}/v1/public/flows/${embedKey}${path}`, { method: 'POST', headers: { origin: ORIGIN, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.ok, `${path}: ${await res.clone().text()}`).toBe(true);
    return res.status === 202 ? {} : res.json();
  };
  const { sessionId } = await call('/sessions', {});
  for (const body of [{ type: 'view' }, { type: 'step_viewed', stepId: 'welcome' }, { type: 'step_completed', stepId: 'welcome' }, { type: 'step_viewed', stepId: 'goals' }]) {
    await call(`/sessions/${sessionId}/events`, body);
  }
}

/** Sandbox: the same clinic's questionnaire approved in sandbox and a public intake submission as a tester types it. */
async function sandboxIntake(): Promise<string> {
  const { key } = await ops<{ key: string }>(`/developer/keys/ops/tenants/${clinic.tenantId}`, { name: 'e2e sandbox setup' });
  const product = await api<{ id: string }>(key, 'POST', '/products', { name: 'Semaglutide', sku: `SEMA-SB-${stamp}`, form: 'injection', strength: '0.25 mg', rxRequired: true, active: true });
  const protocol = await api<{ id: string }>(key, 'POST', '/protocols', { name: 'GLP-1 start', items: [{ productId: product.id, quantity: 4, sig: 'Inject 0.25 mg once weekly', refills: 2 }] });
  const q = await api<{ id: string }>(key, 'POST', '/intake/questionnaires', {
    key: 'sandbox-check',
    title: 'Sandbox weight check',
    protocolId: protocol.id,
    items: [
      { linkId: 'dob', text: 'Date of birth', type: 'date', required: true, fact: 'dateOfBirth' },
      { linkId: 'weight', text: 'How much do you weigh?', type: 'decimal', required: true, min: 60, max: 800, unit: 'lb' },
    ],
    rules: [],
  });
  // The provider signs in with two-factor and approves it (a provider's token acts in sandbox unless told otherwise).
  const challenge = await api<{ mfaToken: string }>('', 'POST', '/auth/login', { email: clinic.providerEmail, password: PASSWORD });
  const session = await api<{ accessToken: string }>('', 'POST', '/auth/mfa/verify', { mfaToken: challenge.mfaToken, code: await freshTotp(clinic.mfaSecret) });
  await api(session.accessToken, 'POST', `/intake/questionnaires/${q.id}/approve`, {});
  const embed = await api<{ id: string }>(key, 'POST', '/embed-keys', { name: 'sandbox site', allowedOrigins: [ORIGIN], questionnaireKeys: ['sandbox-check'] });
  const sent = await fetch(`${base()}/v1/public/intake/${embed.id}/submissions`, {
    method: 'POST',
    headers: { origin: ORIGIN, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ questionnaireKey: 'sandbox-check', patient: { name: 'Tess Tester', email: `tess-${stamp}@example.org`, state: 'CA' }, answers: { dob: '1979-03-03', weight: 187.5 } }),
  });
  expect(sent.status, await sent.clone().text()).toBe(201);
  return ((await sent.json()) as { submissionId: string }).submissionId;
}

async function signInProvider(page: Page) {
  await signInWithPassword(page, clinic.providerEmail);
  await page.getByLabel('Authentication code').fill(await freshTotp(clinic.mfaSecret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
}

async function openAs(browser: Browser, state: BrowserContextOptions['storageState'], width: number, mode: 'live' | 'sandbox' = 'live') {
  const context = await browser.newContext({ storageState: state, viewport: { width, height: 900 } });
  await context.addCookies([{ name: 'fr_mode', value: mode, url: base() }]);
  return { context, page: await context.newPage() };
}

async function accessible(page: Page, label: string) {
  await page.waitForLoadState('networkidle');
  expect.soft(await seriousAxeProblems(page), `axe on ${label}`).toEqual([]);
}

async function fits(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'no sideways scroll').toBeLessThanOrEqual(width);
}

/** The status tokens (snake_case, as the API spells them) in the page's visible text: there should be none. */
async function statusTokensShown(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  const snake = text.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [];
  return [...new Set(snake.filter((t) => STATUS_TOKENS.includes(t)))];
}

test.describe.serial('provider and admin pages (issue 50 item 5)', () => {
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(240_000);
    clinic = await clinicWithFlow('Provider Pages Clinic');
    embedKey = await clinic.embedKey([ORIGIN]);
    adminEmail = `admin-${stamp}@clinic.test`;
    await ops(`/ops/tenants/${clinic.tenantId}/users`, { email: adminEmail, password: PASSWORD, role: 'admin' });
    // The patient on file: date of birth and sex recorded, in CA.
    const patient = await api<{ id: string }>(clinic.key, 'POST', '/patients', {
      firstName: 'Marisol',
      lastName: 'Quintero',
      dateOfBirth: DOB,
      sex: 'female',
      email: EMAIL,
      address: { line1: '9 Pine St', city: 'Oakland', state: 'CA', postalCode: '94607' },
    });
    // Someone with the same e-mail and another date of birth, through a flow that never asks sex at birth.
    flagged = await runFlow('Marisol Quintero', EMAIL, OTHER_DOB);
    await runFlow('Jonah Whitfield', `jonah-${stamp}@example.org`, '1979-11-30');
    await dropAtGoals();
    const product = await api<{ id: string }>(clinic.key, 'POST', '/products', { name: 'Semaglutide vial', sku: `SEMA-ORD-${stamp}`, form: 'injection', strength: '0.5 mg', rxRequired: true, active: true });
    orderId = (await api<{ id: string }>(clinic.key, 'POST', '/orders', { patientId: patient.id, items: [{ productId: product.id, quantity: 1, sig: 'Inject 0.5 mg weekly', refills: 0 }] })).id;
    sandboxSubmission = await sandboxIntake();

    const context = await browser.newContext();
    const page = await context.newPage();
    await signInProvider(page);
    providerState = await context.storageState();
    await context.close();
    const admin = await browser.newContext();
    const adminPage = await admin.newPage();
    await signInWithPassword(adminPage, adminEmail);
    await expect(adminPage).toHaveURL(/\/console$/, { timeout: 30_000 });
    adminState = await admin.storageState();
    await admin.close();
  });

  test('(a) the side-by-side marks a fact as differing only when both sides recorded it', async ({ browser }) => {
    for (const width of WIDTHS) {
      const { context, page } = await openAs(browser, providerState, width);
      await page.goto(`/intake/submissions/${flagged}`);
      const panel = page.getByTestId('identity-panel');
      await expect(panel.getByRole('heading', { name: 'Is this the same person?' })).toBeVisible();
      // Both recorded, different: marked.
      const dob = panel.getByTestId('identity-row-dateOfBirth');
      await expect(dob).toHaveAttribute('data-differs', 'true');
      await expect(dob).toContainText('Differs');
      await expect(dob).toContainText(DOB);
      await expect(dob).toContainText(OTHER_DOB);
      // Recorded on file (Female), never asked by the flow: not recorded, not a difference.
      const sex = panel.getByTestId('identity-row-sexAtBirth');
      await expect(sex).not.toHaveAttribute('data-differs', 'true');
      await expect(sex).not.toContainText('Differs');
      await expect(sex.getByRole('cell')).toHaveText(['Female', 'Not recorded']);
      // Both recorded, the same: not marked.
      for (const fact of ['name', 'state', 'email']) await expect(panel.getByTestId(`identity-row-${fact}`)).not.toHaveAttribute('data-differs', 'true');
      // The sentence names what the server flagged: the date of birth alone.
      await expect(panel).toContainText('but their date of birth differs');
      await fits(page, width);
      await page.screenshot({ path: `test-results/provider-identity-${width}.png`, fullPage: true });
      await accessible(page, `flagged submission at ${width}px`);
      await context.close();
    }
  });

  test('(b) in sandbox the review page says the synthetic person stands in for the tester and the answers are what was typed', async ({ browser }) => {
    for (const width of WIDTHS) {
      const { context, page } = await openAs(browser, providerState, width, 'sandbox');
      await page.goto(`/intake/submissions/${sandboxSubmission}`);
      await expect(page.getByTestId('mode-banner')).toHaveText(/Sandbox mode/);
      const note = page.getByTestId('sandbox-submission-note');
      await expect(note.getByRole('heading', { name: 'Sandbox: test data, not a real patient' })).toBeVisible();
      await expect(note.getByTestId('sandbox-person-words')).toContainText('The patient shown is a synthetic person standing in for whoever tested the form');
      await expect(note.getByTestId('sandbox-answers-words')).toContainText('The answers are exactly what the tester typed');
      // The person shown is generated, not the name typed; the answers shown are the typed ones.
      await expect(page.getByTestId('person-name')).not.toHaveText('Tess Tester');
      await expect(page.getByTestId('submission-person-name')).toBeVisible();
      await page.getByRole('button', { name: 'Show answers' }).click();
      await expect(page.getByTestId('submission-answers')).toContainText('187.5 lb');
      await expect(page.getByTestId('submission-answers')).toContainText('1979-03-03');
      await expect(page.getByTestId('person-dob')).not.toContainText('Mar 3, 1979');
      await fits(page, width);
      await page.screenshot({ path: `test-results/provider-sandbox-review-${width}.png`, fullPage: true });
      await accessible(page, `sandbox submission at ${width}px`);
      await context.close();
    }
    // Live says nothing of the kind.
    const { context, page } = await openAs(browser, providerState, 1280);
    await page.goto(`/intake/submissions/${flagged}`);
    await expect(page.getByTestId('identity-panel')).toBeVisible();
    await expect(page.getByTestId('sandbox-submission-note')).toHaveCount(0);
    await context.close();
  });

  test('(c) the provider’s overview shows the intake review queue beside the order approval queue', async ({ browser }) => {
    for (const width of WIDTHS) {
      const { context, page } = await openAs(browser, providerState, width);
      await page.goto('/console');
      const orders = page.getByTestId('overview-approval-queue');
      const intake = page.getByTestId('overview-intake-queue');
      await expect(orders.getByTestId('approval-waiting')).toHaveText('1');
      await expect(intake.getByRole('heading', { name: 'Intake review' })).toBeVisible();
      await expect(intake.getByTestId('intake-waiting')).toHaveText('2');
      await expect(intake).toContainText('submissions wait for a provider’s review');
      await expect(intake.getByTestId('intake-identity-to-resolve')).toHaveText('1 needs the patient’s identity resolved first');
      const [a, b] = [await orders.boundingBox(), await intake.boundingBox()];
      if (width === 1280) expect(Math.abs(a!.y - b!.y), 'side by side on a wide screen').toBeLessThan(2);
      else expect(b!.y, 'stacked under it on a phone').toBeGreaterThan(a!.y + a!.height - 1);
      await fits(page, width);
      await page.screenshot({ path: `test-results/provider-overview-${width}.png`, fullPage: true });
      await accessible(page, `overview at ${width}px`);
      if (width === 1280) {
        await intake.getByRole('link', { name: 'Open the review queue →' }).click();
        await expect(page).toHaveURL(/\/intake\/submissions$/);
        await expect(page.getByTestId('submission-row')).toHaveCount(2);
      }
      await context.close();
    }
  });

  test('(d) statuses in words: no main console page shows a status token', async ({ browser }) => {
    test.setTimeout(240_000);
    const pages: [BrowserContextOptions['storageState'], string[]][] = [
      [providerState, ['/console', '/orders', `/orders/${orderId}`, '/orders/approvals', '/intake/submissions', '/intake/submissions?status=all', `/intake/submissions/${flagged}`, '/patients', `/flows/${clinic.flowId}/analytics`]],
      [adminState, ['/console', '/orders', `/orders/${orderId}`, '/flows', `/flows/${clinic.flowId}`, '/products', '/pharmacies', '/routing', '/webhooks', '/billing', '/embed-keys', '/keys', '/team', '/usage']],
    ];
    const shown: string[] = [];
    for (const [state, paths] of pages) {
      const { context, page } = await openAs(browser, state, 1280);
      for (const path of paths) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expect(page.getByRole('main')).toBeVisible();
        for (const token of await statusTokensShown(page)) shown.push(`${path}: ${token}`);
      }
      await context.close();
    }
    expect(shown).toEqual([]);
    // The words are there instead: the order's badge, the filter's options and the timeline.
    const { context, page } = await openAs(browser, providerState, 390);
    await page.goto(`/orders/${orderId}`);
    await expect(page.getByRole('main').getByTestId('order-status').first()).toHaveText('awaiting approval');
    await expect(page.getByTestId('timeline-change').first()).toHaveText('created awaiting approval');
    await page.goto('/orders');
    await expect(page.getByLabel('Status').locator('option[value="pending_approval"]')).toHaveText('Awaiting approval');
    await page.goto('/intake/submissions');
    await expect(page.getByTestId('submission-status').first()).toHaveText('pending review');
    await accessible(page, 'intake review at 390px');
    await context.close();
  });

  test('(e) the funnel shows, per step, how many reached it and how many completed it, and the drop-off', async ({ browser }) => {
    for (const width of WIDTHS) {
      const { context, page } = await openAs(browser, providerState, width);
      await page.goto(`/flows/${clinic.flowId}/analytics`);
      const funnel = page.getByRole('figure', { name: 'Funnel by step' });
      await expect(funnel.getByTestId('funnel-chart').locator('svg.recharts-surface:not([aria-label$="legend icon"])')).toBeVisible();
      const table = funnel.getByRole('table', { name: /Funnel by step/ });
      await expect(table.getByRole('columnheader')).toHaveText(['Step', 'Reached', 'Completed', 'Dropped off']);
      const row = (stepId: string) => funnel.locator(`[data-testid="funnel-row"][data-step-id="${stepId}"]`);
      // Three people saw the landing page and passed it; one of them left at the first question.
      await expect(row('welcome').getByRole('rowheader')).toHaveText(FLOW_COPY.headline);
      await expect(row('welcome').getByRole('cell')).toHaveText(['3', '3', '0 (0%)']);
      await expect(row('goals').getByRole('rowheader')).toHaveText('What brings you here?');
      await expect(row('goals').getByRole('cell')).toHaveText(['3', '2', '1 (33%)']);
      await expect(row('contact').getByRole('cell')).toHaveText(['2', '2', '0 (0%)']);
      await expect(row('result').getByRole('rowheader')).toHaveText(`Submitted: ${FLOW_COPY.eligibleTitle}`);
      await expect(row('result').getByRole('cell')).toHaveText(['2', '2', '0 (0%)']);
      await expect(funnel).toContainText('Most patients left at “What brings you here?”: 1 of 3 who reached it.');
      await fits(page, width);
      await page.screenshot({ path: `test-results/provider-funnel-${width}.png`, fullPage: true });
      await accessible(page, `flow analytics at ${width}px`);
      await context.close();
    }
  });
});
