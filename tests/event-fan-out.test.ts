import { eq, sql } from 'drizzle-orm';
import { TypeID } from 'typeid-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs, webhookDeliveries } from '@/db/schema';
import { emitEvent } from '@/server/domain/events/emit';
import { DELIVERY_JOB } from '@/server/domain/webhooks/deliveries';
import { ID_PREFIXES, newId } from '@/server/lib/ids';
import { createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';
import { emit, orderData, startReceiver, TEST_TIMEOUT_MS, waitFor } from './helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS });

// The database writes an event's deliveries itself (trigger events_fan_out, migration 0006): these tests
// hold its ids, job kind and wake-up to what the service's own code expects of them.

let app: TestApp;
beforeAll(async () => {
  // Polls once a minute, and retries a failed delivery an hour later: a delivery that arrives sooner was woken
  // by the trigger's NOTIFY (the last test shows which turn of the worker claimed it).
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '60000', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_SCHEDULE: '0,1h' });
});
afterAll(async () => app?.close());

const db = () => app.services.database.db;
const hook = (key: string, body: Record<string, unknown>) =>
  app.request('POST', '/v1/developer/webhooks', { key, body: { url: 'http://localhost:9/unused', ...body } }).then((r) => {
    if (r.status !== 201) throw new Error(r.text);
    return r.body.id as string;
  });

describe('fr_typeid', () => {
  it('mints ids of the shape, version and clock of the service’s own', async () => {
    // The database's clock read by the ids falls between the service's clock before and after the statement
    // (a second either side for two clocks' granularity): an ordering of the two clocks, not a time limit.
    const before = Date.now();
    const result = (await db().execute(sql`select fr_typeid(${ID_PREFIXES.delivery}) as id from generate_series(1, 50)`)) as unknown as { rows: { id: string }[] };
    const after = Date.now();
    const ids = result.rows.map((r) => r.id);
    expect(new Set(ids).size).toBe(50);
    let newestMs = 0;
    for (const id of ids) {
      const parsed = TypeID.fromString(id);
      expect(parsed.getType()).toBe(ID_PREFIXES.delivery);
      const uuid = parsed.toUUID();
      expect(uuid[14]).toBe('7');
      expect('89ab').toContain(uuid[19]);
      const ms = parseInt(uuid.replace(/-/g, '').slice(0, 12), 16);
      expect(ms).toBeGreaterThanOrEqual(before - 1000);
      expect(ms).toBeLessThanOrEqual(after + 1000);
      newestMs = Math.max(newestMs, ms);
      expect(id).toMatch(new RegExp(`^${ID_PREFIXES.delivery}_[0-7][0-9a-hjkmnp-tv-z]{25}$`));
    }
    // Time-sortable against ids minted in the service afterwards, i.e. once its clock is past the newest one's millisecond.
    await waitFor(() => Date.now() > newestMs, { what: `the service's clock to pass ${newestMs}` });
    const later = newId('delivery');
    expect(ids.every((id) => id < later)).toBe(true);
  });

  it('sorts ids minted one after another in that order, also within one millisecond', async () => {
    const minted: string[] = [];
    for (let i = 0; i < 40; i++) {
      const r = (await db().execute(sql`select fr_typeid(${ID_PREFIXES.delivery}) as id`)) as unknown as { rows: { id: string }[] };
      minted.push(r.rows[0].id);
    }
    expect([...minted].sort()).toEqual(minted);
    // Within one millisecond: one statement mints 40 (one by one above can take longer than a millisecond each on a slow host).
    const batch = ((await db().execute(sql`select fr_typeid(${ID_PREFIXES.delivery}) as id from generate_series(1, 40)`)) as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    expect([...batch].sort()).toEqual(batch);
    // Several fell within one millisecond (the first 10 characters after the prefix are the timestamp).
    const millis = new Set(batch.map((id) => id.slice(ID_PREFIXES.delivery.length + 1, ID_PREFIXES.delivery.length + 11)));
    expect(millis.size).toBeLessThan(batch.length);
  });
});

describe('an appended event', () => {
  it('gets one pending delivery and one job per enabled subscribed endpoint of its tenant and mode only', async () => {
    const a = await createTenantWithKeys(app, 'Fan-out A');
    const b = await createTenantWithKeys(app, 'Fan-out B');
    const all = await hook(a.sandboxKey, {});
    const routed = await hook(a.sandboxKey, { events: ['order.routed', 'order.shipped'] });
    const otherType = await hook(a.sandboxKey, { events: ['order.shipped'] });
    const disabled = await hook(a.sandboxKey, { events: ['order.routed'] });
    await app.request('PATCH', `/v1/developer/webhooks/${disabled}`, { key: a.sandboxKey, body: { status: 'disabled' } });
    await hook(a.liveKey, {});
    await hook(b.sandboxKey, {});

    const scope = { tenantId: a.tenantId, livemode: false };
    const event = await emit(app, scope, 'order.routed', orderData());
    const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id));
    expect(rows.map((r) => r.endpointId).sort()).toEqual([all, routed].sort());
    expect(rows.map((r) => r.endpointId)).not.toContain(otherType);
    for (const row of rows) {
      expect(row).toMatchObject({ tenantId: a.tenantId, livemode: false, eventType: 'order.routed', trigger: 'event' });
      expect(row.id.startsWith(`${ID_PREFIXES.delivery}_`)).toBe(true);
      expect(row.createdAt.getTime()).toBe(new Date(event.createdAt).getTime());
      const [job] = await db().select().from(jobs).where(sql`${jobs.payload}->>'deliveryId' = ${row.id}`);
      expect(job).toMatchObject({ kind: DELIVERY_JOB, tenantId: a.tenantId, livemode: false, payload: { deliveryId: row.id, endpointId: row.endpointId } });
      expect(job.id.startsWith(`${ID_PREFIXES.job}_`)).toBe(true);
    }
  });

  it('appended several in one statement: each gets the deliveries of its own type (the trigger runs once per statement, migration 0037)', async () => {
    const a = await createTenantWithKeys(app, 'Fan-out batch');
    const all = await hook(a.sandboxKey, {});
    const shipped = await hook(a.sandboxKey, { events: ['order.shipped'] });
    const ids = [newId('event'), newId('event'), newId('event')];
    const at = new Date().toISOString();
    await db().execute(sql`insert into events (id, tenant_id, livemode, type, data, created_at) values
      (${ids[0]}, ${a.tenantId}, false, 'order.routed', '{}'::jsonb, ${at}::timestamptz),
      (${ids[1]}, ${a.tenantId}, false, 'order.shipped', '{}'::jsonb, ${at}::timestamptz),
      (${ids[2]}, ${a.tenantId}, true, 'order.shipped', '{}'::jsonb, ${at}::timestamptz)`);
    const endpointsOf = async (eventId: string) =>
      (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId))).map((r) => r.endpointId).sort();
    expect(await endpointsOf(ids[0])).toEqual([all]);
    expect(await endpointsOf(ids[1])).toEqual([all, shipped].sort());
    expect(await endpointsOf(ids[2])).toEqual([]);
    const queued = await db().select().from(jobs).where(eq(jobs.tenantId, a.tenantId));
    expect(queued).toHaveLength(3);
    // A statement that appends no event (a conditional insert whose condition failed) writes nothing either.
    await db().execute(sql`insert into events (id, tenant_id, livemode, type, data, created_at) select ${newId('event')}, ${a.tenantId}, false, 'order.routed', '{}'::jsonb, now() where false`);
    expect(await db().select().from(jobs).where(eq(jobs.tenantId, a.tenantId))).toHaveLength(3);
  });

  it('writes nothing when its transaction rolls back', async () => {
    const a = await createTenantWithKeys(app, 'Fan-out rollback');
    await hook(a.sandboxKey, {});
    const scope = { tenantId: a.tenantId, livemode: false };
    let eventId = '';
    await expect(
      db().transaction(async (tx) => {
        eventId = (await emitEvent(tx, scope, 'order.routed', orderData())).id;
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(eventId).not.toBe('');
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId))).toEqual([]);
    expect(await db().select().from(jobs).where(eq(jobs.tenantId, a.tenantId))).toEqual([]);
  });

  it('wakes the worker when it commits: delivered long before the next poll', async () => {
    const a = await createTenantWithKeys(app, 'Fan-out wake');
    // The worker's loop marks the start of each turn; read as the delivery arrives, while the turn that claimed
    // it waits for the answer, it is that turn's.
    let claimingTurnAt: number | null = null;
    const receiver = await startReceiver(() => {
      claimingTurnAt ??= app.worker!.health().beatAt;
    });
    await app.request('POST', '/v1/developer/webhooks', { key: a.sandboxKey, body: { url: `${receiver.url}/hook` } });
    // Nothing else to wake the worker: no job in hand (a finishing job wakes it) and none due within the hour
    // (the deliveries of the tests above failed and wait for their retry).
    const idle = sql`not exists (select 1 from ${jobs} where ${jobs.status} = 'pending' and (${jobs.lockedUntil} > now() or ${jobs.runAt} < now() + interval '30 minutes'))`;
    await waitFor(async () => ((await db().execute(sql`select ${idle} as idle`)) as unknown as { rows: { idle: boolean }[] }).rows[0].idle, {
      what: 'the worker to have no job in hand or due soon',
    });
    const lastTurnAt = app.worker!.health().beatAt!;
    const before = Date.now();
    const event = await emit(app, { tenantId: a.tenantId, livemode: false }, 'order.routed', orderData());
    const [got] = await waitFor(() => receiver.received.length > 0 && receiver.received, { what: 'the delivery' });
    expect(got.headers['webhook-id']).toBe(event.id);
    // Claimed by a turn begun after the emit (not one under way when it committed, which needed no waking),
    // and sooner than the poll after the turn before: the NOTIFY started it.
    expect(claimingTurnAt, 'the claiming turn began after the emit').toBeGreaterThanOrEqual(before);
    expect(claimingTurnAt! - lastTurnAt, 'the claiming turn began before the next poll').toBeLessThan(60_000);
    await receiver.close();
  });
});
