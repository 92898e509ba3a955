import { test } from '@playwright/test';
import { clinicWithUser, signInWithPassword } from './helpers';

test('probe overflow', async ({ page }) => {
  const { email } = await clinicWithUser('Probe Clinic', 'admin');
  await signInWithPassword(page, email);
  await page.waitForURL(/\/console$/, { timeout: 30_000 });
  for (const path of ['/keys', '/team', '/account']) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await page.waitForTimeout(500);
      const wide = await page.evaluate((w) => {
        const out: string[] = [`scrollWidth=${document.documentElement.scrollWidth}`];
        for (const el of Array.from(document.querySelectorAll('body *'))) {
          const r = el.getBoundingClientRect();
          if (r.right > w + 1 && r.width > 0) out.push(`${el.tagName}.${(el.getAttribute('class') ?? '').slice(0, 60)} right=${Math.round(r.right)}`);
        }
        return out.slice(0, 12);
      }, width);
      console.log(path, width, wide.join('\n  '));
    }
  }
});
