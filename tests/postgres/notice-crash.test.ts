import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killChildWorkers, query, startChildWorker } from '../helpers/dispatch';
import { readOutbox, startTestApp, type TestApp } from '../helpers/harness';
import { noticesOf, noticesSettled, readSmsOutbox } from '../helpers/notices';
import { ordersWorld } from '../helpers/orders-world';
import { waitFor } from '../helpers/webhooks';

/*
 * DESIGN decision 41: one notice per (order, milestone, channel), even when the worker is killed with SIGKILL
 * between handing a message to its transport and recording it. The next worker finds the attempt's mark and sends
 * again only through a transport that de-duplicates by notice (the outboxes, one file per notice): exactly one
 * message. PostgreSQL only: the worker is a process of its own.
 */

let app: TestApp;
let smsDir: string;
beforeAll(async () => {
  smsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-sms-crash-'));
  app = await startTestApp({ SMS_OUTBOX_DIR: smsDir });
});
afterAll(async () => {
  await killChildWorkers();
  await app?.close();
});

describe('a worker killed mid-send', () => {
  it('leaves exactly one message in the outbox per channel once another worker finishes', async () => {
    const w = await ordersWorld(app, 'Crash Clinic');
    expect((await app.request('PATCH', '/v1/notices/settings', { key: w.key, body: { milestones: { order_sent: { sms: true } } } })).status).toBe(200);
    await app.services.database.db.execute(sql`update patients set phone = '+14155550166', sms_consent_at = now(), notify_sms = true where id = ${w.patients.ca}`);
    const created = await w.create();
    expect((await w.approve(created.body.id)).status).toBe(201);
    const id = created.body.id as string;
    expect((await noticesOf(app, id)).map((n) => n.status)).toEqual(['pending', 'pending']);

    const env = { MAIL_OUTBOX_DIR: app.services.config.MAIL_OUTBOX_DIR, SMS_OUTBOX_DIR: smsDir, WORKER_CONCURRENCY: '1' };
    const stalling = startChildWorker(app.databaseUrl!, env, { entry: 'tests/helpers/notice-stall-child.ts' });
    await waitFor(() => stalling.stderr().includes('notice handed over'), { what: 'the worker to hand a notice over' });
    stalling.child.kill('SIGKILL');
    expect(await stalling.exited).toBeNull();
    // One message went out and is not recorded: its notice is still pending, with the mark of its attempt.
    const marked = await query<{ id: string; channel: string; status: string; sending_at: Date | null; attempts: number }>(
      app,
      sql`select id, channel, status, sending_at, attempts from patient_notices where subject_id = ${id} and sending_at is not null`,
    );
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ status: 'pending', attempts: 1 });
    expect(readOutbox(app).length + readSmsOutbox(smsDir).length).toBe(1);

    const worker = startChildWorker(app.databaseUrl!, env);
    try {
      const rows = await noticesSettled(app, id, 2);
      expect(rows.map((n) => [n.channel, n.status])).toEqual([['email', 'sent'], ['sms', 'sent']]);
      // The killed attempt's notice was sent again (a second attempt), into the same outbox file.
      expect(rows.find((n) => n.id === marked[0].id)!.attempts).toBe(2);
    } finally {
      expect(await worker.stop()).toBe(0);
    }
    expect(readOutbox(app)).toHaveLength(1);
    expect(readOutbox(app)[0].subject).toBe('[Sandbox] Crash Clinic: Your order was sent to the pharmacy');
    expect(readSmsOutbox(smsDir)).toHaveLength(1);
    expect(readSmsOutbox(smsDir)[0].to).toBe('+14155550166');
  });
});
