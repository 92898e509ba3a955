import { BenchError, envInt } from '../lib';
import { createScratchDatabase } from '../servers';
import { runSoak, type SoakResult } from './run';

export const SOAK_FAULTS = ['no-pg', 'no-redis', 'no-kill-web', 'no-kill-worker'];

/**
 * The soak on a scratch database of the local PostgreSQL (bench/servers.ts) and the Redis of SOAK_REDIS_URL
 * (default redis://127.0.0.1:6379). SOAK_SECONDS (default 180); SOAK_FAULTS=no-pg,no-redis,… skips faults.
 */
export async function soak(): Promise<SoakResult | { skipped: string }> {
  const skip = new Set((process.env.SOAK_FAULTS ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  const unknown = [...skip].filter((s) => !SOAK_FAULTS.includes(s));
  if (unknown.length) throw new BenchError(`SOAK_FAULTS: unknown ${unknown.join(', ')}; known: ${SOAK_FAULTS.join(', ')}`);
  const db = await createScratchDatabase();
  if ('skipped' in db) return { skipped: `the soak needs PostgreSQL: ${db.skipped}` };
  const redisUrl = process.env.SOAK_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // The scratch database is reached over TCP: a PostgreSQL restart must be met the way a remote one would be.
  const url = new URL(db.url);
  if (url.searchParams.get('host')?.startsWith('/')) {
    url.searchParams.delete('host');
    url.hostname = '127.0.0.1';
    url.port = '5432';
  }
  return runSoak({ databaseUrl: url.toString(), redisUrl, seconds: envInt('SOAK_SECONDS', 180), skip });
}
