import { like, sql, type SQL } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { jobs } from '@/db/schema';
import { JOBS_CHANNEL } from '@/server/db/outbox';
import { emitEvent } from '@/server/domain/events/emit';
import { killChildWorkers, startChildWorker } from '../helpers/dispatch';
import { countRows, createTenantWithKeys, startTestApp, type TestApp } from '../helpers/harness';
import { emit, orderData, startReceiver, waitFor, type Receiver } from '../helpers/webhooks';

let app: TestApp | undefined;
let rx: Receiver | undefined;
afterAll(async () => {
  await killChildWorkers();
  await app?.close();
  await rx?.close();
});

// A slower send timeout and lease than startChildWorker's defaults: the receiver answers after 300 ms.
const startWorker = (databaseUrl: string) =>
  startChildWorker(databaseUrl, { WEBHOOK_TIMEOUT_MS: '2000', WORKER_LEASE_MS: '3000', WEBHOOK_RETRY_SCHEDULE: '0,200ms,200ms,200ms' }).child;

describe('workers on one PostgreSQL', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'two workers never attempt a delivery twice at once, and a worker killed mid-delivery loses nothing',
    async () => {
      app = await startTestApp();
      const db = app.services.database.db;
      const rows = async <T>(q: SQL) => ((await db.execute(q)) as unknown as { rows: T[] }).rows;
      const t = await createTenantWithKeys(app);
      const scope = { tenantId: t.tenantId, livemode: false };
      const inFlight = new Map<string, number>();
      let overlaps = 0;
      // A slow receiver: each answer goes out 300 ms after its request came; in flight until then.
      rx = await startReceiver((r) => {
        const id = String(r.headers['webhook-id']);
        const n = (inFlight.get(id) ?? 0) + 1;
        inFlight.set(id, n);
        if (n > 1) overlaps++;
        return { delayMs: 300, onAnswer: () => inFlight.set(id, (inFlight.get(id) ?? 1) - 1) };
      });
      const ep = await app.request('POST', '/v1/developer/webhooks', { key: t.sandboxKey, body: { url: `${rx.url}/slow` } });

      // Both workers up (each LISTENs once started) before the backlog appears, so both take their share of it
      // however long either takes to start.
      const listening = async () =>
        Number((await rows<{ n: number }>(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query = ${`LISTEN "${JOBS_CHANNEL}"`}`))[0].n);
      const listeningBefore = await listening();
      const a = startWorker(app.databaseUrl!);
      const b = startWorker(app.databaseUrl!);
      await waitFor(async () => (await listening()) === listeningBefore + 2, { what: 'both worker processes to LISTEN for jobs' });
      // A backlog of 30 at once: one transaction, one NOTIFY, both workers claiming from it side by side.
      const emitted: string[] = [];
      await db.transaction(async (tx) => {
        for (let i = 0; i < 30; i++) emitted.push((await emitEvent(tx, scope, 'order.routed', orderData())).id);
      });

      // Killed mid-delivery: a request of a job worker a holds is at the receiver, unanswered.
      const heldByA = async () =>
        (
          await rows<{ eventId: string }>(
            sql`select d.event_id as "eventId" from jobs j join webhook_deliveries d on d.id = j.payload->>'deliveryId' where j.locked_by like ${`%:${a.pid}:%`}`,
          )
        ).map((r) => r.eventId);
      await waitFor(async () => (await heldByA()).some((id) => (inFlight.get(id) ?? 0) > 0), { what: 'worker a to have a delivery in flight at the receiver' });
      a.kill('SIGKILL');
      await new Promise((ok) => a.once('exit', ok));
      const orphaned = await app.services.database.db.select().from(jobs).where(like(jobs.lockedBy, `%:${a.pid}:%`));
      expect(orphaned.length, 'the killed worker held deliveries in flight').toBeGreaterThan(0);

      for (let i = 0; i < 10; i++) emitted.push((await emit(app, scope, 'order.routed', orderData())).id);
      await waitFor(
        async () => {
          const list = (await app!.request('GET', `/v1/developer/webhooks/${ep.body.id}/deliveries`, { key: t.sandboxKey })).body;
          return list.length === 40 && list.every((d: { status: string }) => d.status === 'delivered');
        },
        { what: 'every delivery delivered' },
      );
      const seen = new Map<string, number>();
      for (const r of rx.received) seen.set(String(r.headers['webhook-id']), (seen.get(String(r.headers['webhook-id'])) ?? 0) + 1);
      expect(new Set(seen.keys())).toEqual(new Set(emitted));
      expect(overlaps).toBe(0);
      // Only what the killed worker had in hand is sent again (at-least-once), and only after its lease ended.
      const repeated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
      expect(repeated.length).toBeLessThanOrEqual(orphaned.length);
      // Delivered is recorded before a job ends; wait for the worker to remove the last ones.
      await waitFor(async () => (await countRows(app!, 'jobs')) === 0, { what: 'the worker to remove every finished job' });

      b.kill('SIGTERM');
      await new Promise((ok) => b.once('exit', ok));
    },
    120_000,
  );
});
