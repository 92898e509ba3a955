import { openDatabase } from '@/server/db/client';
import { acquirePgliteLock } from '@/server/db/pglite-lock';
import { loadConfig } from '@/server/lib/config';
import { logger } from '@/server/lib/logger';
import { startMetricsListener } from '@/server/lib/metrics-scrape';
import { registerMetricsProbes } from './metrics-probes';
import { startProcessWorker, stopProcessWorker } from './global';

/** `npm run worker`: a worker process on its own. Any number may run beside the web processes on PostgreSQL. */
async function main() {
  const config = loadConfig();
  if (!config.DATABASE_URL && !config.PGLITE_DATA_DIR.startsWith('memory://')) acquirePgliteLock(config.PGLITE_DATA_DIR);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
  await database.migrate();
  const worker = await startProcessWorker(database, config);
  logger.info({ worker: worker.id, database: database.kind }, 'worker started');
  // Its deliveries, dispatches and the queue's depth, on METRICS_PORT when set (a worker has no other listener).
  registerMetricsProbes(database);
  const metricsServer = startMetricsListener(config);

  // SIGTERM: stop claiming, give the jobs in hand SHUTDOWN_DRAIN_MS, hand back the leases still held, exit 0.
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    metricsServer?.close();
    await stopProcessWorker({ graceMs: config.SHUTDOWN_DRAIN_MS });
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
