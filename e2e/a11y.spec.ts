import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContextOptions } from '@playwright/test';
import { seedClinic, signedInState, type SeededClinic } from './console-seed';

/**
 * Every console page, as an admin and as a provider, at desktop and phone width: no serious or critical
 * WCAG 2 A/AA violation (axe), and at 390 px nothing scrolls the page sideways (wide tables scroll in their
 * own box). One test per page, role and width, so each failure names its page.
 */

const PAGES: { name: string; path: (c: SeededClinic) => string }[] = [
  { name: 'overview', path: () => '/console' },
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
const WIDTHS = [1280, 390];
const ROLES = ['admin', 'provider'] as const;

let clinic: SeededClinic;
const states = new Map<string, BrowserContextOptions['storageState']>();

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  clinic = await seedClinic();
  states.set('admin', await signedInState(browser, clinic.adminEmail));
  states.set('provider', await signedInState(browser, clinic.providerEmail));
});

async function openAs(browser: Browser, role: string, width: number) {
  const context = await browser.newContext({ storageState: states.get(role), viewport: { width, height: 900 } });
  return { context, page: await context.newPage() };
}

for (const role of ROLES) {
  for (const width of WIDTHS) {
    test.describe(`${role} at ${width}px`, () => {
      for (const p of PAGES) {
        test(`${p.name}: no serious or critical axe violations${width < 640 ? ', no sideways scroll' : ''}`, async ({ browser }) => {
          const { context, page } = await openAs(browser, role, width);
          const path = p.path(clinic);
          const res = await page.goto(path);
          test.info().annotations.push({ type: 'status', description: `${path} answered ${res?.status()}` });
          await page.waitForLoadState('networkidle');

          const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
          const serious = violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => `${v.id} (${v.impact}) ${v.help}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 140)}`).join(' | ')}`);
          expect.soft(serious, `axe on ${path} as ${role} at ${width}px`).toEqual([]);

          if (width < 640) {
            const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
            // Names the outermost elements that stick out, so a failure says where to look.
            const culprits = await page.evaluate((w) => {
              const out = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > w + 1);
              return out.filter((el) => !out.includes(el.parentElement!)).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').split(' ').slice(0, 4).join('.')} → ${Math.round(el.getBoundingClientRect().right)}px`);
            }, width);
            expect.soft(scrollWidth, `${path} is wider than the ${width}px screen: ${culprits.join('; ')}`).toBeLessThanOrEqual(width);
          }
          await context.close();
        });
      }
    });
  }
}
