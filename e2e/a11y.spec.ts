import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { seedClinic, signedInState, type SeededClinic } from './console-seed';
import { seriousAxeProblems } from './axe';

/**
 * Every console page, as an admin and as a provider, at desktop and phone width: no serious or critical
 * WCAG 2 A/AA violation (axe), and at 390 px nothing scrolls the page sideways (wide tables scroll in their
 * own box). One test per page and role, so each failure names its page; the page is loaded once and checked
 * at 1280 px, then narrowed to 390 px and checked again (the layouts switch in CSS alone, so a narrowed page
 * is laid out as one opened at 390 px), and each failure names its width.
 */

const PAGES: { name: string; path: (c: SeededClinic) => string }[] = [
  { name: 'overview', path: () => '/console' },
  { name: 'go live', path: () => '/go-live' },
  { name: 'orders', path: () => '/orders' },
  { name: 'order detail', path: (c) => `/orders/${c.orderId}` },
  { name: 'approval queue', path: () => '/orders/approvals' },
  { name: 'questionnaires', path: () => '/intake/questionnaires' },
  { name: 'questionnaire versions', path: (c) => `/intake/questionnaires/${c.questionnaireKey}` },
  { name: 'questionnaires pending', path: () => '/intake/questionnaires/pending' },
  { name: 'questionnaire builder', path: () => '/intake/questionnaires/new' },
  { name: 'questionnaire builder from a version', path: (c) => `/intake/questionnaires/new?from=${c.questionnaireKey}` },
  { name: 'intake review', path: () => '/intake/submissions' },
  { name: 'intake submission', path: (c) => `/intake/submissions/${c.submissionId}` },
  { name: 'patients', path: () => '/patients' },
  { name: 'patient detail', path: (c) => `/patients/${c.patientId}` },
  { name: 'products', path: () => '/products' },
  { name: 'pharmacies', path: () => '/pharmacies' },
  { name: 'routing', path: () => '/routing' },
  { name: 'webhooks', path: () => '/webhooks' },
  { name: 'events', path: () => '/events' },
  { name: 'api keys', path: () => '/keys' },
  { name: 'account', path: () => '/account' },
  { name: 'team', path: () => '/team' },
  { name: 'usage', path: () => '/usage' },
  { name: 'billing', path: () => '/billing' },
  { name: 'not found', path: () => '/console/no-such-page' },
];
const PHONE = 390;
const WIDTHS = [1280, PHONE];
const ROLES = ['admin', 'provider'] as const;

let clinic: SeededClinic;
const states = new Map<string, BrowserContextOptions['storageState']>();
/**
 * One signed-in page per role in each worker, navigated afresh by every test: the pages only read, and a
 * page that has loaded the console once keeps its scripts cached and compiled and its renderer running,
 * which on a 2-core CI machine is about a second of Chromium per test not spent again (issue 32).
 */
const pages = new Map<string, Page>();
async function pageFor(browser: Browser, role: string) {
  let page = pages.get(role);
  if (!page) {
    const context = await browser.newContext({ storageState: states.get(role) });
    page = await context.newPage();
    pages.set(role, page);
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  return page;
}

test.afterAll(async () => {
  for (const page of pages.values()) await page.context().close();
  pages.clear();
});

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  clinic = await seedClinic();
  states.set('admin', await signedInState(browser, clinic.adminEmail));
  states.set('provider', await signedInState(browser, clinic.providerEmail));
});

/** The page's width at `width`, and the outermost elements that stick out, so a failure says where to look. */
async function sideways(page: Page, width: number) {
  return page.evaluate((w) => {
    const out = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > w + 1);
    const culprits = out.filter((el) => !out.includes(el.parentElement!)).slice(0, 5);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      culprits: culprits.map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').split(' ').slice(0, 4).join('.')} → ${Math.round(el.getBoundingClientRect().right)}px`),
    };
  }, width);
}

for (const role of ROLES) {
  test.describe(`${role}`, () => {
    for (const p of PAGES) {
      test(`${p.name}: no serious or critical axe violations at ${WIDTHS.join(' and ')}px, no sideways scroll at ${PHONE}px`, async ({ browser }) => {
        const page = await pageFor(browser, role);
        const path = p.path(clinic);
        const res = await page.goto(path);
        test.info().annotations.push({ type: 'status', description: `${path} answered ${res?.status()}` });
        await page.waitForLoadState('networkidle');
        for (const width of WIDTHS) {
          if (width !== WIDTHS[0]) await page.setViewportSize({ width, height: 900 });
          expect.soft(await seriousAxeProblems(page), `axe on ${path} as ${role} at ${width}px`).toEqual([]);
          if (width === PHONE) {
            const { scrollWidth, culprits } = await sideways(page, width);
            expect.soft(scrollWidth, `${path} is wider than the ${width}px screen: ${culprits.join('; ')}`).toBeLessThanOrEqual(width);
          }
        }
      });
    }
  });
}
