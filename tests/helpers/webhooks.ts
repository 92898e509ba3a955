import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, count, eq } from 'drizzle-orm';
import { jobs } from '@/db/schema';
import type { Scope } from '@/server/db/scoped';
import type { EventData, EventType } from '@/server/domain/events/catalog';
import { emitEvent } from '@/server/domain/events/emit';
import { newId } from '@/server/lib/ids';
import type { TestApp } from './harness';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
  at: number;
}

export type Responder = (
  req: Received,
  n: number,
) => {
  status?: number;
  headers?: Record<string, string>;
  /** A slow receiver: answers this long after the request arrived. */
  delayMs?: number;
  body?: string;
  /** Called as the answer goes out (after any delay). */
  onAnswer?: () => void;
} | void;

/** A local webhook receiver recording every request; `respond` decides each answer (default 200). */
export async function startReceiver(respond: Responder = () => undefined) {
  const received: Received[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/', at: Date.now() };
      received.push(r);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const answer = receiver.respond(r, received.length) ?? {};
      if (answer.delayMs) await new Promise((ok) => setTimeout(ok, answer.delayMs));
      inFlight--;
      answer.onAnswer?.();
      res.writeHead(answer.status ?? 200, answer.headers ?? {});
      res.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((ok) => server.listen(0, ok));
  const port = (server.address() as AddressInfo).port;
  const receiver = {
    url: `http://localhost:${port}`,
    port,
    received,
    respond,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
  return receiver;
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Emits through the domain inside a transaction, as a feature's state change will. */
export function emit<T extends EventType>(app: TestApp, scope: Scope, type: T, data: EventData<T>) {
  return app.services.database.db.transaction((tx) => emitEvent(tx, scope, type, data));
}

export const orderData = (status: 'submitted' | 'accepted' = 'submitted') => ({
  orderId: newId('order'),
  pharmacyConnectionId: newId('pharmacyConnection'),
  status,
});

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * How long a wait gives up after. Generous: a wait ends on the event, row or message it waits for, so only a
 * broken service (or a machine many times slower than any seen) reaches it. A file whose tests wait raises
 * its test timeout above this (`vi.setConfig({ testTimeout: TEST_TIMEOUT_MS })`), so the wait's own message,
 * naming what never came, is the one reported.
 */
export const WAIT_MS = 30_000;
export const TEST_TIMEOUT_MS = 60_000;

/** Polls `probe` until it returns something truthy (returned), failing after `timeoutMs` with what it waited for. */
export async function waitFor<T>(probe: () => T | Promise<T>, { timeoutMs = WAIT_MS, what }: { timeoutMs?: number; what?: string } = {}): Promise<Truthy<T>> {
  // The monotonic clock: a test may move Date.now (tests/auth-lockout.test.ts) or the service's clock.
  const until = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (performance.now() > until) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what ?? `${String(probe).slice(0, 200)} to hold`}`);
    await new Promise((ok) => setTimeout(ok, 25));
  }
}

/**
 * Waits until the worker has finished every job of the tenant (of `kind`, when given): each one run to its
 * end, retries included, and removed (or buried). Whatever those jobs were to send has been sent then, so a
 * test can assert what did *not* arrive. Jobs are written in the transaction of the change that needs them,
 * so every job of a change the test has awaited is counted.
 */
export async function jobsDone(app: TestApp, { tenantId, kind }: { tenantId: string; kind?: string }) {
  const db = app.services.database.db;
  const pending = and(eq(jobs.tenantId, tenantId), eq(jobs.status, 'pending'), kind ? eq(jobs.kind, kind) : undefined);
  await waitFor(async () => Number((await db.select({ n: count() }).from(jobs).where(pending))[0].n) === 0, {
    what: `the worker to finish every ${kind ? `${kind} ` : ''}job of tenant ${tenantId}`,
  });
}
