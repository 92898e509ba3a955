import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleForwardProof, FORWARD_PROOF, FORWARDED_CLIENT_IP } from '@/server/api/client-ip';
import { startTestApp, type TestApp } from '../helpers/harness';

const SECRETS = ['first-app-auth-secret-of-sufficient-length-01', 'second-app-auth-secret-of-sufficient-length-2'];

describe('settings flow from the validated config, not through process.env', () => {
  let envBefore: Record<string, string | undefined>;
  let apps: TestApp[] = [];
  beforeAll(async () => {
    envBefore = { ...process.env };
    // Two services in one process, each with its own AUTH_SECRET: a value parked in process.env can only be one of them.
    apps = [await startTestApp({ AUTH_SECRET: SECRETS[0] }), await startTestApp({ AUTH_SECRET: SECRETS[1] })];
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('starting the service writes nothing to process.env', () => {
    expect({ ...process.env }).toEqual(envBefore);
  });

  it("each service trusts the console's forwarded address under its own configured secret", async () => {
    for (const [i, app] of apps.entries()) {
      const from = (ip: string) => ({ [FORWARDED_CLIENT_IP]: ip, [FORWARD_PROOF]: consoleForwardProof(SECRETS[i]) });
      // A new address each time, so only the per-IP limit (50 in 15 minutes) can answer 429.
      let n = 0;
      const ask = (ip: string) => app.request('POST', '/v1/auth/magic-link', { body: { email: `person${n++}@clinic.test` }, headers: from(ip) });
      const statuses: number[] = [];
      for (let k = 0; k < 51; k++) statuses.push((await ask('198.51.100.10')).status);
      expect(statuses).toEqual([...Array(50).fill(200), 429]);
      // Another browser address is another bucket only if the proof was accepted (otherwise both are the loopback peer).
      expect((await ask('198.51.100.11')).status).toBe(200);
    }
  });

  it('no code outside the tests assigns to process.env', () => {
    const write = /process\.env(\.\w+|\[[^\]]+\])\s*(=(?!=)|\?\?=|\|\|=|&&=)|delete\s+process\.env|Object\.assign\(\s*process\.env/;
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(p);
        else if (/\.(ts|tsx|mjs|js)$/.test(entry.name) && write.test(fs.readFileSync(p, 'utf8'))) offenders.push(p);
      }
    };
    for (const dir of ['server', 'scripts', 'bin', 'web', 'app']) walk(path.resolve(dir));
    expect(offenders).toEqual([]);
  });
});
