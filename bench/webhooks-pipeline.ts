import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { openDatabase } from '@/server/db/client';
import type { Database } from '@/server/db/types';
import { emitEvent } from '@/server/domain/events/emit';
import { createTenant } from '@/server/domain/ops/tenants';
import { createEndpoint } from '@/server/domain/webhooks/endpoints';
import { createWorker, type Worker } from '@/server/jobs/worker';
import { loadConfig } from '@/server/lib/config';
import { newId } from '@/server/lib/ids';
import { BenchError, onCleanup, spawnChild, type Child } from './lib';
import { createScratchDatabase, ensureServerBuild, type DbKind } from './servers';

const WORKER_ENV = { NODE_ENV: 'production', WEBHOOKS_ALLOW_LOCALHOST: 'true', LOG_LEVEL: 'info' } as const;

/** A receiver that answers 200 at once and notes when each event first arrived, and any repeat. */
async function startReceiver() {
  const arrivals = new Map<string, { at: number; latencyMs: number }>();
  let duplicates = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const id = String(req.headers['webhook-id']);
      if (arrivals.has(id)) duplicates++;
      else arrivals.set(id, { at, latencyMs: at - Date.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')).createdAt) });
      res.end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((ok) => server.listen(0, ok));
  onCleanup(() => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/hook`, arrivals, duplicates: () => duplicates };
}

/**
 * The outbox pipeline on its own database: events emitted by this process in their own transactions (as a
 * feature's state change does), one enabled endpoint on a local receiver, and the workers: in this process
 * on PGlite (the embedded web process runs its worker), `server/jobs/main.ts` children on PostgreSQL.
 */
export async function openPipeline(db: DbKind) {
  let database: Database;
  let url: string | undefined;
  if (db === 'postgres') {
    const scratch = await createScratchDatabase();
    if ('skipped' in scratch) throw new BenchError(`webhooks: ${scratch.skipped}`);
    url = scratch.url;
    database = await openDatabase({ databaseUrl: url });
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-bench-webhooks-'));
    onCleanup(() => fs.rmSync(dir, { recursive: true, force: true }));
    database = await openDatabase({ pgliteDataDir: path.join(dir, 'pglite') });
  }
  onCleanup(() => database.close());
  await database.migrate();
  const tenant = await createTenant(database.db, { name: 'Bench clinic (webhooks)' });
  const scope = { tenantId: tenant.id, livemode: true };
  const receiver = await startReceiver();
  await createEndpoint(database.db, scope, { url: receiver.url, events: [] }, { allowLocalhost: true });

  let inProcess: Worker | null = null;
  let children: Child[] = [];
  return {
    receiver,
    emit: () =>
      database.db.transaction((tx) =>
        emitEvent(tx, scope, 'order.routed', { orderId: newId('order'), pharmacyConnectionId: newId('pharmacyConnection'), status: 'submitted' }),
      ),
    async startWorkers(count: number) {
      if (db === 'pglite') {
        if (count !== 1) throw new BenchError('PGlite is single-process: one worker only');
        inProcess = createWorker({ database, config: loadConfig({ ...WORKER_ENV, PGLITE_DATA_DIR: 'unused' }) });
        await inProcess.start();
        return;
      }
      ensureServerBuild();
      children = Array.from({ length: count }, (_, i) =>
        spawnChild(`worker ${i + 1}`, ['scripts/run-built.mjs', 'worker'], { ...process.env, ...WORKER_ENV, DATABASE_URL: url }),
      );
      const until = Date.now() + 60_000;
      while (!children.every((c) => c.tail().includes('worker started'))) {
        if (Date.now() > until) throw new BenchError(`workers did not start:\n${children.map((c) => c.tail()).join('\n')}`);
        await Promise.race([new Promise((ok) => setTimeout(ok, 100)), ...children.map((c) => c.exited)]);
      }
    },
    async stopWorkers() {
      await inProcess?.stop();
      await Promise.all(children.map((c) => c.stop()));
      inProcess = null;
      children = [];
    },
  };
}
export type Pipeline = Awaited<ReturnType<typeof openPipeline>>;
