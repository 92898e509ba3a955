import { spawn, type ChildProcess } from 'node:child_process';
import { sql, type SQL } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import type { TestApp } from './harness';

/** Rows of a raw query against the test app's database (PGlite or PostgreSQL answer alike). */
export async function query<T>(app: TestApp, q: SQL): Promise<T[]> {
  const res = (await app.services.database.db.execute(q)) as unknown as { rows: T[] };
  return res.rows;
}

export interface DispatchRow {
  id: string;
  round: number;
  status: string;
  connection_id: string;
}

export interface BookRow {
  id: string;
  connection_id: string;
  idempotency_key: string;
}

/** The order's dispatch rounds, oldest first. */
export const dispatchesOf = (app: TestApp, orderId: string) =>
  query<DispatchRow>(app, sql`select id, round, status, connection_id from order_dispatches where order_id = ${orderId} order by round`);

/** What the simulated pharmacies have in their own books for the order: the proof of how often it was sent. */
export const bookRowsOf = (app: TestApp, orderId: string) =>
  query<BookRow>(app, sql`select id, connection_id, idempotency_key from simulated_pharmacy_orders where payload->>'orderId' = ${orderId}`);

/** `order.routed` events naming the order (optionally: naming this pharmacy). */
export async function routedEventsOf(app: TestApp, orderId: string, connectionId?: string) {
  const rows = await query<{ pharmacy: string }>(
    app,
    sql`select data->>'pharmacyConnectionId' as pharmacy from events where type = 'order.routed' and data->>'orderId' = ${orderId}`,
  );
  return connectionId ? rows.filter((r) => r.pharmacy === connectionId) : rows;
}

let callbackSeq = 0;

/** A pharmacy status callback signed Standard Webhooks-style with the connection's secret, as a pharmacy sends it. */
export function sendCallback(app: TestApp, connectionId: string, secret: string, body: Record<string, unknown>) {
  const raw = JSON.stringify(body);
  const id = `cb_test_${process.pid}_${++callbackSeq}`;
  const at = new Date();
  return app.request('POST', `/v1/pharmacy-callbacks/${connectionId}`, {
    rawBody: raw,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(id, at, raw),
    },
  });
}

export interface ChildWorker {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stderr(): string;
  /** SIGTERM (a graceful stop) and wait for the exit; a no-op once it has exited. */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

/**
 * A real worker process (`server/jobs/main.ts`) on the test app's PostgreSQL scratch database. Run as
 * `node --import tsx` rather than through the tsx CLI, which forks, so the pid is the worker itself.
 * PGlite is single-process, so only PostgreSQL runs can use it.
 */
export function startChildWorker(databaseUrl: string, env: Record<string, string> = {}, opts: { crashAfterPharmacyAck?: boolean; entry?: string } = {}): ChildWorker {
  const entry = opts.entry ?? (opts.crashAfterPharmacyAck ? 'tests/helpers/crashing-worker.ts' : 'server/jobs/main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      // The lease must exceed WEBHOOK_TIMEOUT_MS (config rule); short, so a dead worker's job is taken over soon.
      WEBHOOK_TIMEOUT_MS: '1000',
      WORKER_LEASE_MS: '2000',
      WORKER_POLL_MS: '100',
      WORKER_CONCURRENCY: '4',
      // Receivers and pharmacies of the tests listen on localhost, which is off by default on PostgreSQL.
      WEBHOOKS_ALLOW_LOCALHOST: 'true',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    exited,
    stderr: () => err,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Kills every child worker this file started that is still running (afterAll). */
export async function killChildWorkers() {
  const left = [...running];
  for (const c of left) c.kill('SIGKILL');
  await Promise.all(left.map((c) => new Promise((ok) => (c.exitCode !== null || c.signalCode !== null ? ok(null) : c.once('exit', ok)))));
}

/** Rejects with `what` when `p` has not settled within `ms`. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
