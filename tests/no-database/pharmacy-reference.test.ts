import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@/bin/run-cli';
import { directFetch, runProtocolChecks, startCallbackListener, type CheckReport } from '@/server/integrations/pharmacies/protocol-check';
import { startFaultyPharmacy, type Fault } from '../helpers/faulty-pharmacy';
import { startReferencePharmacy } from '../helpers/reference-pharmacy';

/*
 * Issue 54: the reference pharmacy (examples/pharmacy-reference, started as its README says: `node server.mjs`)
 * passes every check of the protocol checker, through the CLI too; and each planted fault (a proxy in front of it
 * that breaks one rule, tests/helpers/faulty-pharmacy.ts) fails, naming the check it breaks.
 */

const secret = `whsec_${randomBytes(32).toString('base64')}`;
let reference: Awaited<ReturnType<typeof startReferencePharmacy>>;
let baseUrl: string;

beforeAll(async () => {
  reference = await startReferencePharmacy(secret);
  baseUrl = reference.url;
});
afterAll(async () => reference?.close());

async function check(url: string, limits = { timeLimitMs: 5_000, callbackWaitMs: 5_000 }): Promise<CheckReport> {
  const listener = await startCallbackListener();
  try {
    return await runProtocolChecks({ baseUrl: url, secret, fetch: directFetch, callbacks: listener.receiver, ...limits });
  } finally {
    await listener.close();
  }
}

const failedNames = (r: CheckReport) => r.checks.filter((c) => !c.passed).map((c) => c.name);
const result = (r: CheckReport, name: string) => r.checks.find((c) => c.name === name)!;

describe('the reference pharmacy against the checker', () => {
  it('passes every check', async () => {
    const report = await check(baseUrl);
    expect(failedNames(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.checks.map((c) => c.name)).toEqual([
      'catalog-feed', 'rejects-unsigned', 'rejects-bad-signature', 'rejects-stale-timestamp', 'order-create',
      'order-idempotent', 'order-lookup', 'order-cancel', 'callback-signed', 'status-names', 'response-time',
    ]);
    expect(result(report, 'callback-signed').seen).toMatch(/signed callback\(s\): .*cancelled/);
  });

  it('npm run cli -- pharmacy verify prints one line per check and exits 0', async () => {
    const out = await runCli(['pharmacy', 'verify', '--base-url', baseUrl, '--secret', secret, '--callback-wait-ms', '5000']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout.match(/^PASS {2}\S+/gm)).toHaveLength(11);
    expect(out.stdout).toMatch(/PASS {2}order-idempotent +expected: .*\n +seen: ref_\S+ each time/);
    expect(out.stdout).toContain('All 11 checks passed.');
  });

  it('refuses bad flags with exit code 2, contacting nothing', async () => {
    expect(await runCli(['pharmacy', 'verify', '--base-url', baseUrl])).toMatchObject({ code: 2, stderr: expect.stringContaining('--secret is required') });
    expect(await runCli(['pharmacy', 'verify', '--base-url', 'ftp://x', '--secret', secret])).toMatchObject({ code: 2, stderr: expect.stringContaining('--base-url') });
    expect(await runCli(['pharmacy', 'check', '--base-url', baseUrl, '--secret', secret])).toMatchObject({ code: 2, stderr: expect.stringContaining("Unknown pharmacy command 'check'") });
    expect(await runCli(['pharmacy', 'verify', '--base-url', baseUrl, '--secret', secret, '--time-limit-ms', 'soon'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--time-limit-ms') });
  });
});

describe('planted faults are caught by name', () => {
  const cases: [Fault, string[], RegExp][] = [
    ['bad-signature', ['callback-signed'], /signature does not verify/],
    ['unsigned-callback', ['callback-signed'], /not signed/],
    ['no-dedup', ['order-idempotent'], /a second order/],
    ['unknown-status', ['status-names'], /"processing"/],
    ['accepts-unsigned', ['rejects-unsigned', 'rejects-bad-signature', 'rejects-stale-timestamp'], /HTTP 200: accepted/],
  ];
  it.each(cases)('%s fails %j', async (fault, names, seen) => {
    const faulty = await startFaultyPharmacy(baseUrl, secret, fault);
    try {
      const report = await check(faulty.url);
      expect(report.passed).toBe(false);
      for (const name of names) {
        expect(failedNames(report)).toContain(name);
        expect(result(report, name).seen).toMatch(seen);
      }
      // One broken rule, one failed check (or the three that test the same rule), where the other checks do not
      // build on what it broke: without de-duplication, "the order" of the later checks is no longer one order, and
      // an unknown status is also a cancel from a status the contract does not know.
      if (fault !== 'no-dedup' && fault !== 'unknown-status') expect(failedNames(report)).toEqual(names);
    } finally {
      await faulty.close();
    }
  });

  it('an answer that never comes fails response-time at the time limit, naming the request', async () => {
    const faulty = await startFaultyPharmacy(baseUrl, secret, 'slow-lookup');
    try {
      const report = await check(faulty.url, { timeLimitMs: 500, callbackWaitMs: 5_000 });
      expect(failedNames(report)).toContain('response-time');
      expect(result(report, 'response-time').seen).toMatch(/GET \/orders\/\{key\}: no answer within 500 ms/);
      expect(result(report, 'order-lookup').passed).toBe(false);
    } finally {
      await faulty.close();
    }
  });

  it('the CLI exits 1 and names the failed check', async () => {
    const faulty = await startFaultyPharmacy(baseUrl, secret, 'no-dedup');
    try {
      const out = await runCli(['pharmacy', 'verify', '--base-url', faulty.url, '--secret', secret, '--callback-wait-ms', '5000']);
      expect(out.code).toBe(1);
      expect(out.stderr).toMatch(/FAIL {2}order-idempotent/);
      expect(out.stderr).toMatch(/\d+ of 11 checks failed: order-idempotent/);
    } finally {
      await faulty.close();
    }
  });
});
