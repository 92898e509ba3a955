import type { Database } from '@/server/db/types';
import type { Config } from '@/server/lib/config';
import type { JobRow } from '../queue';

export interface JobContext {
  database: Database;
  config: Config;
}

/** `done` removes the job; `retry` puts it back for `at`. A thrown error is retried with backoff. */
export type JobOutcome = { kind: 'done' } | { kind: 'retry'; at: Date; error: string | null };

export interface JobHandler {
  kind: string;
  run(job: JobRow, ctx: JobContext): Promise<JobOutcome>;
}
