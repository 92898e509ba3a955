import { openDatabase } from '@/server/db/client';
import { NOTICE_JOB } from '@/server/domain/notices/notice-jobs';
import { sendNotice } from '@/server/domain/notices/send';
import { JOB_HANDLERS } from '@/server/jobs/handlers';
import { noticeDeps } from '@/server/jobs/handlers/patient-notice';
import type { JobHandler } from '@/server/jobs/handlers/types';
import { createWorker } from '@/server/jobs/worker';
import { loadConfig } from '@/server/lib/config';

/*
 * A worker process that stops dead right after a transport took a patient notice and before the notice is recorded
 * sent: it says so on stderr and then waits forever, for the test to kill it with SIGKILL (kill -9) at exactly that
 * point. It is the ordinary worker with the notice job's handler swapped through the worker's own port (`handlers`),
 * sending as the product's does with the notice deps' `afterHandedOver` set; the product has no switch for it.
 */
const stall = () =>
  new Promise<void>(() => {
    process.stderr.write('notice handed over\n');
  });

const stallingAfterHandOver: JobHandler = {
  kind: NOTICE_JOB,
  async run(job, { database, config }) {
    const noticeId = job.payload.noticeId;
    if (!job.tenantId || typeof noticeId !== 'string') return { kind: 'done' };
    await sendNotice(database.db, { tenantId: job.tenantId, livemode: job.livemode }, noticeId, { ...noticeDeps(config), afterHandedOver: stall });
    return { kind: 'done' };
  },
};

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
const handlers = JOB_HANDLERS.map((h) => (h.kind === NOTICE_JOB ? stallingAfterHandOver : h));
await createWorker({ database, config, handlers }).start();
