import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import { test } from '@playwright/test';
import { seedClinic, signedInState } from './console-seed';
function chromiumCpu(): number {
  let t = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chrom')) continue;
      const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = st.slice(st.lastIndexOf(')') + 2).split(' ');
      t += (Number(rest[11]) + Number(rest[12])) / 100;
    } catch {}
  }
  return t;
}
test('axe cost', async ({ browser }) => {
  test.setTimeout(600_000);
  const clinic = await seedClinic();
  const state = await signedInState(browser, clinic.adminEmail);
  const context = await browser.newContext({ storageState: state, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  for (const path of ['/orders', '/intake/questionnaires/new', `/patients/${clinic.patientId}`, '/console']) {
    let c = chromiumCpu();
    await page.goto(path);
    const load = chromiumCpu() - c; c = chromiumCpu();
    await page.waitForLoadState('networkidle');
    const idle = chromiumCpu() - c; c = chromiumCpu();
    await page.waitForTimeout(3000);
    const quiet = chromiumCpu() - c;
    console.log(path, JSON.stringify({ load, idle, quiet3s: quiet }));
  }
  await context.close();
});
