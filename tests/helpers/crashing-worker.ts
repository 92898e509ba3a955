import { openDatabase } from '@/server/db/client';
import { submitDeps } from '@/server/domain/orders/deps';
import { sendFromJob } from '@/server/domain/orders/dispatch';
import { DISPATCH_JOB } from '@/server/domain/orders/order-jobs';
import { JOB_HANDLERS } from '@/server/jobs/handlers';
import type { JobHandler } from '@/server/jobs/handlers/types';
import { createWorker } from '@/server/jobs/worker';
import { loadConfig } from '@/server/lib/config';

/*
 * A worker process that dies (exit 137, as after kill -9) right after a pharmacy acknowledges a dispatch and
 * before the acknowledgement is recorded: the single-dispatch crash tests start it with startChildWorker's
 * `crashAfterPharmacyAck`. It is the ordinary worker with one handler swapped through the worker's own port
 * (`handlers`): the dispatch job's, which sends as the product's does (server/jobs/handlers/orders.ts) with the
 * dispatch deps' `afterAcknowledged` set. The product has no switch for it. The test app has migrated the database.
 */
const dyingAfterAcknowledgement: JobHandler = {
  kind: DISPATCH_JOB,
  async run(job, { database, config }) {
    if (!job.tenantId) return { kind: 'done' };
    const scope = { tenantId: job.tenantId, livemode: job.livemode };
    await sendFromJob(database.db, scope, String(job.payload.dispatchId ?? ''), { ...submitDeps(config), afterAcknowledged: () => process.exit(137) });
    return { kind: 'done' };
  },
};

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
const handlers = JOB_HANDLERS.map((h) => (h.kind === DISPATCH_JOB ? dyingAfterAcknowledgement : h));
await createWorker({ database, config, handlers }).start();
