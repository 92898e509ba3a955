import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { base } from './helpers';
import { clinicWithFlow, expectAccessible, fillContact, FLOW_COPY, watchPage, type FlowClinic } from './flows-world';

/**
 * Issue 23 item 4: the widgets on a clinic's own site, a second local origin (another port). The script frames
 * /embed/frame, sizes it to its content and re-dispatches the frame's progress as fulfillmentrail:* DOM events
 * with ids and verdicts only; a page whose origin the key does not allow gets no frame and no events.
 */

let host: http.Server;
let allowedOrigin: string;
let otherOrigin: string;
let clinic: FlowClinic;
let flowKey: string;
let intakeKey: string;

// The clinic's page: the widget's script tag and a log of what the page hears.
function hostPage(url: URL): string {
  const mode = url.searchParams.get('t') === 'intake' ? 'intake' : 'flow';
  const attrs = [`src="${base()}/embed/v1/${mode}.js"`, `data-embed-key="${url.searchParams.get('k')}"`, 'data-campaign="spring"', 'data-target="#slot"'];
  if (mode === 'intake') attrs.push('data-questionnaire="weight-check"');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Harbor Weight Clinic</title></head>
<body><header><p>Harbor Weight Clinic</p></header><main><h1>Start your weight care</h1><div id="slot"></div></main>
<script>
window.__events = [];
['ready', 'step', 'qualified', 'completed'].forEach(function (t) {
  document.addEventListener('fulfillmentrail:' + t, function (e) { window.__events.push({ type: t, detail: e.detail, target: e.target.id }); });
});
</script>
<script ${attrs.join(' ')} async></script></body></html>`;
}

test.beforeAll(async () => {
  host = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(hostPage(new URL(req.url ?? '/', 'http://host')));
  });
  await new Promise<void>((resolve) => host.listen(0, resolve));
  const port = (host.address() as AddressInfo).port;
  allowedOrigin = `http://localhost:${port}`;
  // The same page under another host name is another origin, one the keys do not allow.
  otherOrigin = `http://127.0.0.1:${port}`;
  clinic = await clinicWithFlow('Harbor Weight Clinic');
  flowKey = await clinic.embedKey([allowedOrigin]);
  intakeKey = await clinic.embedKey([allowedOrigin], true);
});
test.afterAll(() => new Promise<void>((resolve) => host?.close(() => resolve())));

type Seen = { type: string; detail: Record<string, unknown>; target: string };
const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: Seen[] }).__events);
const frameHeight = (page: Page) => page.locator('#slot iframe').evaluate((f) => f.getBoundingClientRect().height);
const DETAIL_KEYS = new Set(['mode', 'embedKey', 'flowId', 'versionId', 'sessionId', 'stepId', 'stepIndex', 'stepCount', 'verdict', 'submissionId', 'questionnaireKey']);

async function expectFitted(page: Page) {
  const frame = page.frameLocator('#slot iframe');
  await expect
    .poll(async () => {
      const content = await frame.locator('main').evaluate((m) => m.parentElement!.getBoundingClientRect().height);
      return Math.abs((await frameHeight(page)) - Math.ceil(content));
    })
    .toBeLessThanOrEqual(1);
}

test('the flow widget runs on an allowed site: auto-height and DOM events with ids only', async ({ page }) => {
  const watched = watchPage(page, [allowedOrigin]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${allowedOrigin}/?k=${flowKey}`);
  const frame = page.frameLocator('#slot iframe');
  await expect(frame.getByRole('heading', { level: 1, name: FLOW_COPY.headline })).toBeVisible();
  await expect.poll(async () => (await events(page)).map((e) => e.type)).toEqual(['ready', 'step']);
  await expectFitted(page);
  const landing = await frameHeight(page);
  await expectAccessible(page, 'host page with the widget');

  // A message that does not come from the frame is not re-dispatched.
  await page.evaluate(() => window.postMessage({ source: 'fulfillmentrail', type: 'completed', detail: { verdict: 'eligible' } }, '*'));

  await frame.getByRole('button', { name: 'Start' }).click();
  await frame.getByRole('group', { name: 'Main reason' }).getByLabel('More energy').check();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { level: 1, name: 'About you' })).toBeVisible();
  await frame.getByLabel('Date of birth').fill('1979-11-30');
  await frame.getByRole('group', { name: 'Are you pregnant or breastfeeding?' }).getByLabel('No').check();
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { level: 1, name: 'Your medications' })).toBeVisible();
  await frame.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('Yes').check();
  await frame.getByLabel('Which medications do you take?').fill('Metformin');
  // Taller content, taller frame: the height follows the page inside.
  await expectFitted(page);
  expect(await frameHeight(page)).toBeGreaterThan(landing);
  await page.screenshot({ path: 'test-results/flow-embed-390.png', fullPage: true });
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.getByLabel('I have read the text above and agree to it').check();
  await frame.getByRole('button', { name: 'I agree, continue' }).click();
  await fillContact(frame, { name: 'Robin Castellanos', email: `robin-${Date.now()}@example.org`, dateOfBirth: '1979-11-30' });
  await frame.getByRole('button', { name: 'See my result' }).click();
  await expect(frame.getByRole('heading', { level: 1, name: FLOW_COPY.eligibleTitle })).toBeVisible();
  await expectFitted(page);

  await expect.poll(async () => (await events(page)).map((e) => e.type)).toContain('completed');
  const seen = await events(page);
  expect(seen.map((e) => e.type)).toEqual(['ready', 'step', 'step', 'step', 'step', 'step', 'step', 'qualified', 'completed']);
  expect(seen.every((e) => e.target === 'slot')).toBe(true);
  expect(seen.map((e) => e.detail.stepId).filter(Boolean)).toEqual(['welcome', 'goals', 'about', 'medications', 'consent', 'contact']);
  const done = seen.at(-1)!.detail;
  expect(done).toMatchObject({ mode: 'flow', flowId: clinic.flowId, verdict: 'eligible' });
  expect(String(done.sessionId)).toMatch(/^fs_/);
  // Ids, positions and verdicts only: nothing the patient typed or chose reaches the host page.
  for (const e of seen) for (const k of Object.keys(e.detail)) expect(DETAIL_KEYS.has(k), k).toBe(true);
  expect(JSON.stringify(seen)).not.toMatch(/Metformin|Robin|example\.org|1979|energy/);
  expect(watched.outside).toEqual([]);
  expect(watched.violations).toEqual([]);
});

test('the intake widget sends a questionnaire from an allowed site', async ({ page }) => {
  await page.goto(`${allowedOrigin}/?t=intake&k=${intakeKey}`);
  const frame = page.frameLocator('#slot iframe');
  await expect(frame.getByRole('heading', { level: 1, name: 'About you' })).toBeVisible();
  await fillContact(frame, { name: 'Lee Okonkwo', email: `lee-${Date.now()}@example.org`, dateOfBirth: '1990-03-14' });
  await frame.getByRole('button', { name: 'Continue' }).click();
  await expect(frame.getByRole('heading', { level: 1, name: 'Weight care check' })).toBeVisible();
  await frame.getByLabel('Date of birth').fill('1990-03-14');
  await frame.getByRole('group', { name: 'Are you pregnant or breastfeeding?' }).getByLabel('No').check();
  await frame.getByRole('group', { name: 'Do you take any other medication?' }).getByLabel('No').check();
  await frame.getByRole('button', { name: 'Send my answers' }).click();
  await expect(frame.getByRole('heading', { level: 1, name: 'Thank you, your answers were sent' })).toBeVisible();
  await expectFitted(page);
  await expect.poll(async () => (await events(page)).map((e) => e.type)).toEqual(['ready', 'step', 'qualified', 'completed']);
  const done = (await events(page)).at(-1)!.detail;
  expect(done).toMatchObject({ mode: 'intake', questionnaireKey: 'weight-check', verdict: 'eligible' });
  expect(String(done.submissionId)).toMatch(/^isub_/);
  expect(JSON.stringify(await events(page))).not.toMatch(/Lee|Okonkwo|1990/);
});

test('a site the key does not allow gets no working frame and hears nothing', async ({ page, request }) => {
  const refusals: string[] = [];
  page.on('console', (m) => {
    if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
  });
  await page.goto(`${otherOrigin}/?k=${flowKey}`);
  await expect(page.locator('#slot iframe')).toHaveCount(1);
  // The browser refuses to render the frame (CSP frame-ancestors from the key's origins): it reports the
  // violation and commits its own error page in the frame instead. Once that page is there, no script of the
  // form runs in the frame, so nothing it could have said is still on its way.
  await expect
    .poll(() => page.frames().some((f) => f.url().startsWith('chrome-error:')), { message: "the browser's error page in the refused frame", timeout: 15_000 })
    .toBe(true);
  expect(refusals.length, 'the frame-ancestors violation reported').toBeGreaterThan(0);
  expect(await events(page)).toEqual([]);
  await expect(page.frameLocator('#slot iframe').getByRole('heading', { name: FLOW_COPY.headline })).toHaveCount(0);

  // Where a browser did render it anyway, the frame itself refuses: the server checked the framing origin.
  const framed = await request.get(`/embed/frame?k=${flowKey}&t=flow`, { headers: { referer: `${otherOrigin}/`, 'sec-fetch-dest': 'iframe' } });
  expect(await framed.text()).toContain('This form cannot be shown on this website');
  const allowed = await request.get(`/embed/frame?k=${flowKey}&t=flow`, { headers: { referer: `${allowedOrigin}/`, 'sec-fetch-dest': 'iframe' } });
  expect(await allowed.text()).toContain(FLOW_COPY.headline);

  // And the public API refuses that origin for this live key.
  const res = await fetch(`${base()}/v1/public/flows/${flowKey}`, { headers: { origin: otherOrigin } });
  expect(res.status).toBe(403);
  expect((await res.json()).error.code).toBe('origin_not_allowed');
});
