import { expect, test, type Response } from '@playwright/test';
import { clinicWithUser, signInWithPassword } from './helpers';

// Issue 20, item 8: the console's pages refuse to be framed, and the policy that says so breaks nothing
// (Next.js's inline scripts, the sign-in form). tests/security-headers.test.ts covers /v1 and HSTS.
function expectPageHeaders(res: Response | null) {
  const h = res!.headers();
  expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(h['content-security-policy']).toContain("form-action 'self'");
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin');
}

test('console pages cannot be framed and still work under their content security policy', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/content security policy/i.test(m.text())) violations.push(m.text());
  });
  expectPageHeaders(await page.goto('/login'));
  const { email } = await clinicWithUser('Headers Clinic', 'admin');
  await signInWithPassword(page, email);
  await expect(page).toHaveURL(/\/console$/);

  const queue = await page.goto('/orders/approvals');
  expect(queue!.status()).toBe(200);
  expectPageHeaders(queue);
  await expect(page.getByRole('navigation', { name: 'Order views' })).toBeVisible();
  expect(violations).toEqual([]);
});
