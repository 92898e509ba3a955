import { randomBytes } from 'node:crypto';
import { callbackSigned } from './checks/callback-signed';
import { catalogFeed } from './checks/catalog';
import { orderCancel } from './checks/order-cancel';
import { orderCreate } from './checks/order-create';
import { orderIdempotent } from './checks/order-idempotent';
import { orderLookup } from './checks/order-lookup';
import { responseTime } from './checks/response-time';
import { rejectsBadSignature, rejectsStaleTimestamp, rejectsUnsigned } from './checks/signature';
import { statusNames } from './checks/status-names';
import type { Check, CheckOptions, CheckReport, CheckResult, RunState } from './types';

/**
 * Every check of the pharmacy protocol (DESIGN decision 43), in the order they run: the later ones build on the
 * test order the earlier ones created, and the last two judge every exchange of the run.
 */
export const PROTOCOL_CHECKS: readonly Check[] = [
  catalogFeed,
  rejectsUnsigned,
  rejectsBadSignature,
  rejectsStaleTimestamp,
  orderCreate,
  orderIdempotent,
  orderLookup,
  orderCancel,
  callbackSigned,
  statusNames,
  responseTime,
];

/** Runs every check against one pharmacy; never throws for anything the pharmacy does. */
export async function runProtocolChecks(options: CheckOptions): Promise<CheckReport> {
  const startedAt = new Date();
  const tag = randomBytes(8).toString('hex');
  const state: RunState = {
    options,
    startedAt: startedAt.getTime(),
    key: `chk_${tag}`,
    unknownKey: `chk_${tag}_never_sent`,
    catalogRow: null,
    created: null,
    cancelledAs: null,
    exchanges: [],
    callbacks: [],
  };
  const results: CheckResult[] = [];
  for (const check of PROTOCOL_CHECKS) {
    const failedNeed = check.needs?.find((n) => !results.find((r) => r.name === n)?.passed);
    const overBudget = options.budgetMs !== undefined && Date.now() - startedAt.getTime() > options.budgetMs;
    const started = performance.now();
    let outcome;
    if (failedNeed) outcome = { passed: false, seen: `not run: it needs ${failedNeed}, which failed` };
    else if (overBudget) outcome = { passed: false, seen: `not run: the run's ${options.budgetMs} ms were spent` };
    else {
      try {
        outcome = await check.run(state);
      } catch (err) {
        outcome = { passed: false, seen: `the check could not finish: ${(err as Error).message}` };
      }
    }
    results.push({ name: check.name, title: check.title, expected: check.expected, ...outcome, ms: Math.round(performance.now() - started) });
  }
  return { passed: results.every((r) => r.passed), checks: results, startedAt: startedAt.toISOString(), finishedAt: new Date().toISOString() };
}

/** One line per check, as the CLI prints them. */
export function reportLines(report: CheckReport): string[] {
  const width = Math.max(...report.checks.map((c) => c.name.length));
  const lines = report.checks.map((c) => `${c.passed ? 'PASS' : 'FAIL'}  ${c.name.padEnd(width)}  expected: ${c.expected}\n      ${' '.repeat(width)}  seen: ${c.seen}`);
  const failed = report.checks.filter((c) => !c.passed);
  lines.push(failed.length ? `${failed.length} of ${report.checks.length} checks failed: ${failed.map((c) => c.name).join(', ')}` : `All ${report.checks.length} checks passed.`);
  return lines;
}
