import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jobs } from '@/db/schema';
import { jobRow } from '@/server/db/outbox';
import type { JobHandler } from '@/server/jobs/handlers/types';
import { createWorker } from '@/server/jobs/worker';
import { startTestApp, type TestApp } from './helpers/harness';
import { waitFor } from './helpers/webhooks';

/**
 * Issue 37, item 3: a worker told to stop within a drain time hands back the lease of a job it could not
 * finish by then, so that another worker claims it at once rather than after WORKER_LEASE_MS.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

it('stop({ graceMs }) releases the leases of jobs still running when the grace is over', async () => {
  let release: () => void = () => undefined;
  let started = false;
  const slow: JobHandler = {
    kind: 'test.slow',
    run: () =>
      new Promise((resolve) => {
        started = true;
        release = () => resolve({ kind: 'done' });
      }),
  };
  const { db } = app.services.database;
  const row = { ...jobRow({ kind: 'test.slow', payload: {} }), livemode: false };
  await db.insert(jobs).values(row);
  const worker = createWorker({ database: app.services.database, config: app.services.config, handlers: [slow] });
  await worker.start();
  await waitFor(() => started, { what: 'the worker to start the job' });
  const [claimed] = await db.select().from(jobs).where(eq(jobs.id, row.id));
  expect(claimed.lockedBy).toBe(worker.id);

  await worker.stop({ graceMs: 50 });
  const [after] = await db.select().from(jobs).where(eq(jobs.id, row.id));
  expect(after).toMatchObject({ status: 'pending', lockedBy: null, lockedUntil: null });
  release();
});
