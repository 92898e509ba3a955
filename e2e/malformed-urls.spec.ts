import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

/*
 * Issue 34 item 4, on the built server with its pages: every page route of app/ with a malformed
 * percent-encoding in a segment, and with malformed query values, answers a 4xx (or the page), never a 5xx.
 * The /v1 operations are fuzzed the same way in tests/no-database/malformed-urls.test.ts.
 */

/** Every page route under app/, as a path whose dynamic segments are filled with `value`. */
function pageRoutes(value: string): string[] {
  const out: string[] = [];
  const walk = (dir: string, segments: string[]) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        const name = entry.name;
        // Route groups `(console)` add no segment; catch-alls and dynamic segments take the value.
        const segment = name.startsWith('(') ? null : name.startsWith('[') ? value : name;
        walk(path.join(dir, name), segment === null ? segments : [...segments, segment]);
      } else if (entry.name === 'page.tsx') {
        out.push(`/${segments.join('/')}`);
      }
    }
  };
  walk(path.join(process.cwd(), 'app'), []);
  return out;
}

const BAD = ['%zz', '%E0%A4%A', '%C0%AF'];

test('page routes with malformed percent-encodings in the path or the query never answer a 5xx', async ({ request }) => {
  const routes = pageRoutes('x');
  expect(routes.length).toBeGreaterThan(20);
  const paths = [
    ...BAD.flatMap((bad) => pageRoutes(bad)),
    ...routes.map((r) => `${r === '/' ? '' : r}/${BAD[0]}`),
    ...routes.map((r) => `${r}${BAD[0]}`),
    ...routes.map((r) => `${r}?q=%zz&%E0%A4%A=1&callbackUrl=%C0%AF`),
  ];
  const failures: string[] = [];
  for (const p of paths) {
    const res = await request.get(p, { maxRedirects: 0 });
    if (res.status() >= 500) failures.push(`${p} → ${res.status()}`);
  }
  expect(failures).toEqual([]);
});
