import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogWorld } from './helpers/catalog-world';
import { dispatchesOf, query, within } from './helpers/dispatch';
import { waitFor } from './helpers/webhooks';
import { ordersWorld } from './helpers/orders-world';
import { idempotencyKeys } from '@/db/schema';
import { requestFingerprint } from '@/server/domain/developer/idempotency';
import { createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';

/**
 * Issue 20, item 5: a web process killed (SIGKILL) while it handles requests with an Idempotency-Key must
 * not leave those keys claimed. Before the fix the claim committed on its own, so a cut request left it
 * `in_flight` and every retry got 409 idempotency_key_in_use for 24 hours, also when the order had been
 * written. A child process is needed (PGlite is single-process), so this runs on PostgreSQL only.
 */
let app: TestApp | undefined;
let inProcess: TestApp | undefined;
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await app?.close();
  await inProcess?.close();
});

/**
 * `node --import tsx` (not the tsx CLI, which forks) so the pid is the server itself and SIGKILL hits it.
 * Its database sessions carry `appName` (PGAPPNAME), so pg_stat_activity tells when they are all gone.
 */
async function startApiChild(databaseUrl: string, appName: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/api-child.ts'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PGAPPNAME: appName, NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMIT_LIVE: '100000', RATE_LIMIT_SANDBOX: '100000', RUN_WORKER: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const port = await within(
    new Promise<string>((resolve, reject) => {
      child.stdout?.once('data', (d: Buffer) => resolve(d.toString().trim()));
      child.once('exit', (code) => reject(new Error(`api child exited (${code}): ${err}`)));
    }),
    60_000,
    'the api child to listen',
  );
  return { child, url: `http://127.0.0.1:${port}` };
}

describe.skipIf(!process.env.DATABASE_URL)('a web process killed mid-request (PostgreSQL)', () => {
  it('leaves no key claimed: each retry gets the committed order or creates it, never idempotency_key_in_use', async () => {
    app = await startTestApp({ RUN_WORKER: 'false' });
    const t = await createTenantWithKeys(app, 'Crash');
    const product = await catalogWorld(app, t.sandboxKey).product('CRASH');
    const N = 72;
    const requests = Array.from({ length: N }, (_, i) => ({
      idempotencyKey: randomUUID(),
      body: { items: [{ productId: product.id, quantity: 1, sig: 'Take one daily' }], foreignOrderId: `crash-${i}` },
    }));

    const appName = `fr-api-child-${randomUUID()}`;
    const sessions = async () => (await query<{ n: number }>(app!, sql`select count(*)::int as n from pg_stat_activity where application_name = ${appName}`))[0].n;
    const { child, url } = await startApiChild(app.databaseUrl!, appName);
    // The sessions the test means to cut: the child works through PostgreSQL connections of its own.
    expect(await sessions()).toBeGreaterThan(0);
    const headers = (k: string) => ({ authorization: `Bearer ${t.sandboxKey}`, 'content-type': 'application/json', 'idempotency-key': k });
    let answered = 0;
    let onAnswer = () => {};
    const firstAnswer = new Promise<void>((resolve) => (onAnswer = resolve));
    const sent = requests.map((r) =>
      fetch(`${url}/v1/orders`, { method: 'POST', headers: headers(r.idempotencyKey), body: JSON.stringify(r.body) })
        .then(async (res) => {
          answered++;
          onAnswer();
          return { status: res.status, body: await res.json().catch(() => null) };
        })
        .catch(() => null),
    );
    // Killed as soon as the first answer is out: the others are somewhere between arrival and commit.
    await firstAnswer;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    const first = await Promise.all(sent);
    const cut = first.filter((r) => r === null).length;
    expect(cut, 'the kill cut requests mid-flight').toBeGreaterThan(0);
    expect(answered).toBeLessThan(N);

    // The killed process's connections are gone, so their transactions are over: nothing is left claimed.
    await within(exited, 30_000, 'the killed api child to exit');
    await waitFor(async () => (await sessions()) === 0, { timeoutMs: 30_000, what: 'PostgreSQL to end the killed process’s sessions' });
    const [claimed] = await query<{ n: number }>(app, sql`select count(*)::int as n from idempotency_keys where state = 'in_flight'`);
    expect(claimed.n).toBe(0);

    for (const [i, r] of requests.entries()) {
      const retry = await app.request('POST', '/v1/orders', { key: t.sandboxKey, body: r.body, idempotencyKey: r.idempotencyKey });
      expect(retry.status, `retry ${i}: ${retry.text}`).toBe(201);
      const before = first[i];
      if (before?.status === 201) {
        expect(retry.headers.get('idempotent-replayed')).toBe('true');
        expect(retry.body.id).toBe(before.body.id);
      }
    }
    const perOrder = await query<{ foreign_order_id: string; n: number }>(
      app,
      sql`select foreign_order_id, count(*)::int as n from orders where tenant_id = ${t.tenantId} group by foreign_order_id`,
    );
    expect(perOrder).toHaveLength(N);
    expect(perOrder.every((o) => o.n === 1)).toBe(true);
  }, 120_000);
});

describe('an approval whose request died after it committed (its claim is a lease)', () => {
  it('the retry that takes the lapsed claim over answers with the committed order and dispatches nothing again', async () => {
    inProcess = await startTestApp();
    const w = await ordersWorld(inProcess, 'Resume');
    const order = (await w.create()).body;
    const idempotencyKey = randomUUID();
    // What the dead request left: its claim, taken before its approval committed and never finished.
    await inProcess.services.database.db.insert(idempotencyKeys).values({
      id: `req_dead_${idempotencyKey}`,
      scope: w.tenantId,
      livemode: false,
      key: idempotencyKey,
      requestHash: requestFingerprint('POST', `/v1/orders/${order.id}/approve`, '{}'),
      credential: w.provider.id,
      state: 'in_flight',
      leaseUntil: new Date(Date.now() - 1),
      createdAt: new Date(Date.now() - 2_000),
    });
    const committed = await w.approve(order.id);
    expect(committed.status).toBe(201);

    const retry = await w.approve(order.id, undefined, idempotencyKey);
    expect(retry.status, retry.text).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toMatchObject({ id: order.id, approvedAt: committed.body.approvedAt });
    expect(await dispatchesOf(inProcess, order.id)).toHaveLength(1);
    const again = await w.approve(order.id, undefined, idempotencyKey);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(order.id);
  }, 120_000);
});
