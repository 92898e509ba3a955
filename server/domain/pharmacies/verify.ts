import { eq, sql } from 'drizzle-orm';
import { pharmacyVerifications, type VerificationCallback } from '@/db/schema';
import { enqueueJobs } from '@/server/db/outbox';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { pinnedFetch, runProtocolChecks, type CallbackReceiver, type ReceivedCallback } from '@/server/integrations/pharmacies/protocol-check';
import { ZHttpSettings } from '@/server/integrations/pharmacies/settings';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newSecretId } from '@/server/lib/ids';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { requireConnection } from './connections';

/*
 * Issue 54, item 5: the protocol checker run by the service against an http pharmacy, with the URL rules of
 * DESIGN decision 7, before a clinic sends it live orders. The request records a run and queues it; the worker
 * runs the checks (they call out and wait for callbacks, so they are work that leaves the system) and records
 * each result. The test order's callbacks come back to the service at the run's own path.
 */

export const VERIFY_JOB = 'pharmacy.verify';
/** The run's callback path under /v1; the run id is unguessable, and the path takes callbacks only while it runs. */
export const checkCallbackPath = (runId: string) => `/v1/pharmacy-protocol/check-callbacks/${runId}`;
/** How long the checks wait for the test order's callbacks. */
const CALLBACK_WAIT_MS = 10_000;
/** A run keeps at most this many callbacks: a run's path is no mailbox. */
const MAX_CALLBACKS = 20;
const POLL_MS = 200;

type RunRow = typeof pharmacyVerifications.$inferSelect;

export function toVerificationDto(row: RunRow) {
  return {
    id: row.id,
    object: 'pharmacy_verification' as const,
    livemode: row.livemode,
    pharmacyConnectionId: row.connectionId,
    status: row.status,
    baseUrl: row.baseUrl,
    checks: row.checks,
    callbacksReceived: row.callbacks.length,
    requestedBy: row.requestedBy,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/** POST /v1/pharmacies/{id}/verify: records a run of the checks and queues it for the worker, in one transaction. */
export async function startVerification(db: Db, scope: Scope, connectionId: string, requestedBy: string | null) {
  const connection = await requireConnection(db, scope, connectionId);
  if (connection.adapter !== 'http') {
    throw errors.validation('Only an http pharmacy speaks the pharmacy protocol; the simulated pharmacy needs no check.', 'id', 'verify_requires_http');
  }
  const { baseUrl } = ZHttpSettings.parse(connection.settings);
  return db.transaction(async (tx) => {
    const row = await scoped(tx, scope).insert(pharmacyVerifications, {
      id: newSecretId('pharmacyVerification'),
      connectionId,
      status: 'running',
      baseUrl,
      checks: [],
      callbacks: [],
      requestedBy,
      createdAt: now(),
      finishedAt: null,
    });
    await enqueueJobs(tx, scope, [{ kind: VERIFY_JOB, payload: { runId: row.id } }]);
    return toVerificationDto(row);
  });
}

/** GET /v1/pharmacies/{id}/verify: the connection's latest run, or null when none was ever started. */
export async function lastVerification(db: Db, scope: Scope, connectionId: string) {
  await requireConnection(db, scope, connectionId);
  const [row] = await scoped(db, scope).list(pharmacyVerifications, { limit: 1, where: eq(pharmacyVerifications.connectionId, connectionId) });
  return row ? toVerificationDto(row) : null;
}

/** The callbacks the run has received, read from its row: the worker's receiver, wherever the callbacks landed. */
function runReceiver(db: Db, scope: Scope, runId: string, publicUrl: string): CallbackReceiver {
  return {
    url: `${publicUrl.replace(/\/+$/, '')}${checkCallbackPath(runId)}`,
    async waitFor(enough, timeoutMs) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const row = await scoped(db, scope).get(pharmacyVerifications, runId);
        const received: ReceivedCallback[] = (row?.callbacks ?? []).map((c) => ({ headers: c.headers, body: c.body }));
        if (enough(received) || Date.now() >= until) return received;
        await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, Math.max(1, until - Date.now()))));
      }
    },
  };
}

/** The worker's side: runs the checks of a run still running and records the report. */
export async function runVerification(db: Db, scope: Scope, runId: string, deps: { policy: UrlPolicy; publicUrl: string; budgetMs: number }) {
  const run = await scoped(db, scope).get(pharmacyVerifications, runId);
  if (!run || run.status !== 'running') return;
  const connection = await requireConnection(db, scope, run.connectionId);
  const { timeoutMs } = ZHttpSettings.parse(connection.settings);
  const report = await runProtocolChecks({
    baseUrl: run.baseUrl,
    secret: connection.secret,
    fetch: pinnedFetch(deps.policy),
    callbacks: runReceiver(db, scope, runId, deps.publicUrl),
    timeLimitMs: timeoutMs,
    callbackWaitMs: CALLBACK_WAIT_MS,
    budgetMs: deps.budgetMs,
  });
  await scoped(db, scope).update(pharmacyVerifications, runId, { status: report.passed ? 'passed' : 'failed', checks: report.checks, finishedAt: now() });
}

/**
 * POST /v1/pharmacy-protocol/check-callbacks/{runId}: keeps a callback for the run's checks to judge (signature
 * and shape are the checks' business, so nothing is verified here). Read by id alone, as a pharmacy callback is by
 * its connection; a run that is not running (or unknown) is a 404 and keeps nothing.
 */
export async function receiveCheckCallback(db: Db, runId: string, req: { headers: Record<string, string | string[] | undefined>; rawBody: string }) {
  const [run] = await db.select().from(pharmacyVerifications).where(eq(pharmacyVerifications.id, runId)).limit(1);
  if (!run) throw errors.notFound('pharmacy check run', runId);
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const callback: VerificationCallback = {
    headers: { 'webhook-id': header('webhook-id'), 'webhook-timestamp': header('webhook-timestamp'), 'webhook-signature': header('webhook-signature') },
    body: req.rawBody,
    receivedAt: now().toISOString(),
  };
  const scope: Scope = { tenantId: run.tenantId, livemode: run.livemode };
  // Appended in the statement, so two callbacks arriving together are both kept.
  const kept = await db
    .update(pharmacyVerifications)
    .set({ callbacks: sql`${pharmacyVerifications.callbacks} || ${JSON.stringify([callback])}::jsonb` })
    .where(
      scoped(db, scope).where(
        pharmacyVerifications,
        eq(pharmacyVerifications.id, runId),
        eq(pharmacyVerifications.status, 'running'),
        sql`jsonb_array_length(${pharmacyVerifications.callbacks}) < ${MAX_CALLBACKS}`,
      ),
    )
    .returning({ id: pharmacyVerifications.id });
  if (!kept.length) throw errors.notFound('pharmacy check run', runId);
  return { received: true as const };
}
