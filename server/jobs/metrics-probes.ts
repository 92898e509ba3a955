import type { Database } from '@/server/db/types';
import { queueDepths } from './queue';
import { metrics } from '@/server/lib/metrics';

// A scrape must not hang on a database that does not answer: fr_jobs_probe_ok turns 0 instead.
const PROBE_TIMEOUT_MS = 2_000;

/** Points the scrape-time gauges (job queue, connection pool) at this process's database. */
export function registerMetricsProbes(database: Database): void {
  const { probes } = metrics();
  probes.pool = () => database.poolStats?.() ?? null;
  probes.queue = () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('queue probe timed out')), PROBE_TIMEOUT_MS)));
    return Promise.race([queueDepths(database.db), timeout]).finally(() => clearTimeout(timer));
  };
}
