import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitDeps } from '@/server/domain/orders/deps';
import { cancelAtPharmacy } from '@/server/domain/orders/recall';
import { createWorker } from '@/server/jobs/worker';
import { dispatchesOf, query, sendCallback } from './helpers/dispatch';
import { startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { captureLogs } from './helpers/logs';
import { ordersWorld } from './helpers/orders-world';
import { waitFor } from './helpers/webhooks';

/*
 * Every transaction that writes an order and its dispatch round locks the order first. A pharmacy-cancel
 * job that locked the round first deadlocked with a callback about the same round (which locks the order
 * first): PostgreSQL broke the cycle after deadlock_timeout (1 s) by failing one side, a 500 to the
 * pharmacy or a failed job, and the property test that raced them spent minutes shrinking the failure.
 */

let app: TestApp;
let w: Awaited<ReturnType<typeof ordersWorld>>;
// The pharmacy accepts at once and ships in an hour: a callback can move the order while a cancel is under way.
const settings = { acceptAfterSeconds: 0, shipAfterSeconds: 3600, deliverAfterSeconds: 3600 };
beforeAll(async () => {
  app = await startTestApp({ DISPATCH_GRACE_MS: '0', ORDER_SYNC_INTERVAL_MS: '100', WORKER_POLL_MS: '50' });
  w = await ordersWorld(app, 'Lock order', { alphaSettings: settings, betaSettings: settings });
});
afterAll(async () => app?.close());

/** A submitted order and its dispatch round. */
async function submittedOrder() {
  const id = (await w.create()).body.id as string;
  const approved = await w.approve(id);
  expect(approved.status, approved.text).toBe(201);
  const [round] = await dispatchesOf(app, id);
  return { id, dispatchId: round.id };
}

describe('orders and their dispatch rounds', () => {
  it('a cancel raced by pharmacy callbacks about the same round never fails a request or a job', async () => {
    const logs = captureLogs();
    const worker = createWorker({ database: app.services.database, config: app.services.config });
    await worker.start();
    const answers: ApiResponse[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const { id, dispatchId } = await submittedOrder();
        const body = { idempotencyKey: dispatchId, status: 'shipped', reasonCode: null, tracking: { carrier: 'UPS', number: '1ZLOCKORDER0001' } };
        const callbacks = Array.from({ length: 3 }, () => sendCallback(app, w.pharmacies.alpha, w.pharmacies.alphaSecret, body));
        answers.push(...(await Promise.all([...callbacks, w.act(id, 'cancel')])));
      }
    } finally {
      await worker.stop();
      logs.restore();
    }
    expect(answers.filter((r) => r.status >= 500).map((r) => r.text)).toEqual([]);
    const failures = logs.records().filter((r) => r.msg === 'job failed' || r.msg === 'request failed');
    expect(failures.map((r) => r.err)).toEqual([]);
  }, 60_000);

  // One connection holding the order lock while another runs: PGlite has a single connection.
  it.skipIf(!process.env.DATABASE_URL)('the pharmacy-cancel job waits for a locked order before it touches the round (PostgreSQL)', async () => {
    const { id, dispatchId } = await submittedOrder();
    const holder = new pg.Client({ connectionString: app.databaseUrl });
    await holder.connect();
    try {
      const holderPid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
      await holder.query('begin');
      await holder.query('select id from orders where id = $1 for update', [id]);
      const job = cancelAtPharmacy(app.services.database.db, { tenantId: w.tenantId, livemode: false }, dispatchId, submitDeps(app.services.config));
      const lockWaits = () =>
        query(app, sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> ${holderPid}`);
      await waitFor(async () => (await lockWaits()).length > 0, { what: 'the job to wait for the order lock' });
      // The job waits holding nothing of the round: a transaction that locked the order may still write it.
      await holder.query('select id from order_dispatches where id = $1 for update nowait', [dispatchId]);
      await holder.query('rollback');
      await job;
    } finally {
      await holder.end();
    }
    const [round] = await dispatchesOf(app, id);
    expect(round.status).toBe('cancelled');
  });
});
