import { openDatabase } from '@/server/db/client';
import { acquirePgliteLock } from '@/server/db/pglite-lock';
import { loadConfig } from '@/server/lib/config';
import { logger } from '@/server/lib/logger';
import { startProcessWorker, stopProcessWorker } from './global';

/** `npm run worker`: a worker process on its own. Any number may run beside the web processes on PostgreSQL. */
async function main() {
  const config = loadConfig();
  if (!config.DATABASE_URL && !config.PGLITE_DATA_DIR.startsWith('memory://')) acquirePgliteLock(config.PGLITE_DATA_DIR);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
  await database.migrate();
  const worker = await startProcessWorker(database, config);
  logger.info({ worker: worker.id, database: database.kind }, 'worker started');

  const shutdown = async () => {
    await stopProcessWorker();
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
