import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestPharmacy, type TestPharmacy } from '@/scripts/test-pharmacy';
import { catalogWorld } from './helpers/catalog-world';
import { startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { bookRowsOf, dispatchesOf, killChildWorkers, query, routedEventsOf, sendCallback, startChildWorker, within } from './helpers/dispatch';
import { ordersWorld } from './helpers/orders-world';
import { waitFor } from './helpers/webhooks';
import { startGatedProxy, type GatedProxy, type GatedRequest } from './helpers/gated-proxy';
import { orders } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import { transition, unchangedSince } from '@/server/domain/orders/lifecycle';

/**
 * DESIGN decision 9: a crash at any point of submit never yields two shipments, and no amount of
 * concurrent approving or submitting dispatches a round twice. The simulated pharmacy's own book
 * (`simulated_pharmacy_orders`) is the witness of how often an order reached a pharmacy.
 */

afterAll(killChildWorkers);

/** Scripts that keep an acknowledged order `submitted` (nothing happens at the pharmacy for an hour). */
const SLOW = { acceptAfterSeconds: 3600, shipAfterSeconds: 3600, deliverAfterSeconds: 3600 };

// A child worker process needs a database that several processes can share: PGlite is single-process, so
// this runs only when DATABASE_URL is set, like the other worker-process tests (tests/webhook-workers.test.ts).
// Every wait names what it waits for and allows a minute: a worker process has to start (tsx compiles the
// server on the way), and a loaded CI host may take many times the few seconds it takes here.
describe.skipIf(!process.env.DATABASE_URL)('a worker killed between the pharmacy’s acknowledgement and our commit (PostgreSQL)', () => {
  let app: TestApp;
  let w: Awaited<ReturnType<typeof ordersWorld>>;
  beforeAll(async () => {
    // No dispatch in the request and no worker in the web process: only the child workers dispatch.
    app = await startTestApp({ DISPATCH_INLINE: 'false', RUN_WORKER: 'false', DISPATCH_GRACE_MS: '0' });
    w = await ordersWorld(app, 'Crash', { alphaSettings: SLOW, betaSettings: SLOW });
  });
  afterAll(async () => app?.close());

  it('the next worker looks the key up, finds the pharmacy has it, and records it without sending again', async () => {
    const order = (await w.create()).body;
    const crashing = startChildWorker(app.databaseUrl!, {}, { crashAfterPharmacyAck: true });
    // Approve waits (bounded) for a worker to settle the dispatch; it is watched, not awaited, meanwhile.
    const approving = w.approve(order.id);

    const code = await within(crashing.exited, 60_000, 'the crashing worker to exit');
    expect(code, crashing.stderr()).toBe(137);
    expect(await bookRowsOf(app, order.id)).toHaveLength(1);
    const [pending] = await dispatchesOf(app, order.id);
    expect(pending).toMatchObject({ round: 1, status: 'pending', connection_id: w.pharmacies.alpha });
    expect((await w.get(order.id)).body.status).toBe('submitting');

    const healthy = startChildWorker(app.databaseUrl!);
    try {
      // The dead worker's claim ends with its lease (2 s); the healthy worker then finishes the round.
      await waitFor(async () => (await w.get(order.id)).body.status === 'submitted', { timeoutMs: 60_000, what: 'the order to be submitted' });
      const book = await bookRowsOf(app, order.id);
      expect(book).toHaveLength(1);
      expect(book[0]).toMatchObject({ connection_id: w.pharmacies.alpha, idempotency_key: pending.id });
      const dispatches = await dispatchesOf(app, order.id);
      expect(dispatches).toEqual([{ ...pending, status: 'acknowledged' }]);
      expect(await routedEventsOf(app, order.id)).toEqual([{ pharmacy: w.pharmacies.alpha }]);
      const timeline = (await w.get(order.id)).body.timeline.map((t: { to: string }) => t.to);
      expect(timeline).toEqual(['pending_approval', 'approved', 'submitting', 'submitted']);

      const approved = await within(approving, 60_000, 'the approve response');
      expect(approved.status).toBe(201);
      expect(['submitting', 'submitted']).toContain(approved.body.status);
    } finally {
      expect(await healthy.stop()).toBe(0);
    }
  }, 180_000);

  it('at an http pharmacy, the pharmacy gets one submit request: the recovering worker only asks', async () => {
    const remote = await startTestPharmacy();
    try {
      const lw = await ordersWorld(app, 'Crash live', { mode: 'live' });
      const catalogs = catalogWorld(app, lw.key);
      // The cheapest pharmacy for the line, so routing picks it over the simulated ones.
      const conn = await catalogs.pharmacy('Remote', ['CA'], { baseUrl: remote.url, timeoutMs: 800 }, { adapter: 'http' });
      remote.secret = conn.secret;
      await catalogs.approvedCatalog(conn.id, [['GLP', 'R-GLP', 1, 50, 1]]);
      const submits = () => remote.requests.filter((r) => r.method === 'POST' && r.path === '/orders');

      const order = (await lw.create()).body;
      const crashing = startChildWorker(app.databaseUrl!, {}, { crashAfterPharmacyAck: true });
      const approving = lw.approve(order.id);
      expect(await within(crashing.exited, 60_000, 'the crashing worker to exit'), crashing.stderr()).toBe(137);
      const [pending] = await dispatchesOf(app, order.id);
      expect(pending).toMatchObject({ status: 'pending', connection_id: conn.id });
      expect(submits()).toEqual([expect.objectContaining({ idempotencyKey: pending.id, verified: true })]);
      expect([...remote.orders.keys()]).toEqual([pending.id]);
      const before = remote.requests.length;

      const healthy = startChildWorker(app.databaseUrl!);
      try {
        await waitFor(async () => (await lw.get(order.id)).body.status === 'submitted', { timeoutMs: 60_000, what: 'the order to be submitted' });
        expect(submits()).toHaveLength(1);
        expect(remote.requests.slice(before)).toContainEqual(expect.objectContaining({ method: 'GET', path: `/orders/${pending.id}`, verified: true }));
        expect(await dispatchesOf(app, order.id)).toEqual([{ ...pending, status: 'acknowledged' }]);
        expect(await routedEventsOf(app, order.id)).toEqual([{ pharmacy: conn.id }]);
        expect((await within(approving, 60_000, 'the approve response')).status).toBe(201);
      } finally {
        expect(await healthy.stop()).toBe(0);
      }
    } finally {
      await remote.close();
    }
  }, 180_000);

  it('an order cancelled while its crashed dispatch waits is cancelled at the pharmacy, never re-sent', async () => {
    const order = (await w.create()).body;
    const crashing = startChildWorker(app.databaseUrl!, {}, { crashAfterPharmacyAck: true });
    const approving = w.approve(order.id);
    expect(await within(crashing.exited, 60_000, 'the crashing worker to exit'), crashing.stderr()).toBe(137);
    expect(await bookRowsOf(app, order.id)).toHaveLength(1);

    const cancelled = await w.act(order.id, 'cancel');
    expect(cancelled.status).toBe(201);
    expect(cancelled.body.status).toBe('cancelled');

    const healthy = startChildWorker(app.databaseUrl!);
    try {
      // The cancel job tells the pharmacy first and then closes the dispatch: wait for both.
      await waitFor(
        async () => {
          const [row] = await query<{ cancelled: boolean }>(app, sql`select cancelled_at is not null as cancelled from simulated_pharmacy_orders where payload->>'orderId' = ${order.id}`);
          // The dispatch job may close the round before the cancel job records the pharmacy's answer.
          return row?.cancelled && (await dispatchesOf(app, order.id)).every((d) => d.status === 'cancelled') && (await w.get(order.id)).body.pharmacyRecall;
        },
        { timeoutMs: 60_000, what: 'the pharmacy to hear of the cancel, the dispatch to close and the answer to be recorded' },
      );
      expect(await bookRowsOf(app, order.id)).toHaveLength(1);
      expect((await dispatchesOf(app, order.id)).map((d) => d.status)).toEqual(['cancelled']);
      expect(await routedEventsOf(app, order.id)).toEqual([]);
      const detail = (await w.get(order.id)).body;
      expect(detail.status).toBe('cancelled');
      // The last entry is the pharmacy's answer to the cancel (a note: the status stays cancelled).
      expect(detail.timeline.map((t: { to: string; reasonCode: string | null }) => [t.to, t.reasonCode])).toEqual([
        ['pending_approval', null],
        ['approved', null],
        ['submitting', null],
        ['cancelled', 'cancelled_by_clinic'],
        ['cancelled', 'pharmacy_recalled'],
      ]);
      expect(detail.pharmacyRecall).toBe('recalled');
      expect((await within(approving, 60_000, 'the approve response')).status).toBe(201);
    } finally {
      expect(await healthy.stop()).toBe(0);
    }
  }, 180_000);
});

type KeyMode = 'same key' | 'distinct keys' | 'no key';
const KEY_MODES: KeyMode[] = ['same key', 'distinct keys', 'no key'];

function keysFor(mode: KeyMode, n: number): (string | undefined)[] {
  const shared = randomUUID();
  return Array.from({ length: n }, () => (mode === 'same key' ? shared : mode === 'distinct keys' ? randomUUID() : undefined));
}

/** 201 for the one request that did the work and for replays of it; 409 for everyone else; never a 5xx. */
function expectOneWinner(responses: ApiResponse[], mode: KeyMode) {
  const summary = responses.map((r) => `${r.status} ${r.body?.error?.code ?? r.body?.status ?? ''}${r.headers.get('idempotent-replayed') ? ' (replay)' : ''}`);
  for (const r of responses) expect([201, 409], summary.join('\n')).toContain(r.status);
  const fresh = responses.filter((r) => r.status === 201 && !r.headers.get('idempotent-replayed'));
  expect(fresh, summary.join('\n')).toHaveLength(1);
  const replays = responses.filter((r) => r.headers.get('idempotent-replayed'));
  if (mode !== 'same key') expect(replays).toHaveLength(0);
  for (const r of replays) expect(r.body).toEqual(fresh[0].body);
  for (const r of responses.filter((x) => x.status === 409)) {
    expect(['order_status_conflict', 'idempotency_key_in_use']).toContain(r.body.error.code);
    if (mode !== 'same key') expect(r.body.error.code).toBe('order_status_conflict');
  }
  return fresh[0];
}

// PGlite and PostgreSQL. The in-process worker runs with no grace period, so its outbox job for each round
// races the request's own inline dispatch: single dispatch must hold against that too.
describe('twenty at once', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RUN_WORKER: 'true', DISPATCH_GRACE_MS: '0', WORKER_POLL_MS: '50' });
  });
  afterAll(async () => app?.close());

  describe('approves by the same provider', () => {
    let w: Awaited<ReturnType<typeof ordersWorld>>;
    beforeAll(async () => {
      w = await ordersWorld(app, 'Approvals', { alphaSettings: SLOW, betaSettings: SLOW });
    });

    it.each(KEY_MODES)('%s: one dispatch, one pharmacy order, one order.routed', async (mode) => {
      const order = (await w.create()).body;
      const responses = await Promise.all(keysFor(mode, 20).map((k) => w.approve(order.id, w.provider.token, k)));
      const winner = expectOneWinner(responses, mode);
      expect(winner.body).toMatchObject({ id: order.id, status: 'submitted', pharmacyConnectionId: w.pharmacies.alpha });

      const dispatches = await dispatchesOf(app, order.id);
      expect(dispatches).toHaveLength(1);
      expect(dispatches[0]).toMatchObject({ round: 1, status: 'acknowledged', connection_id: w.pharmacies.alpha });
      expect(await bookRowsOf(app, order.id)).toEqual([expect.objectContaining({ idempotency_key: dispatches[0].id })]);
      expect(await routedEventsOf(app, order.id)).toHaveLength(1);
      const detail = (await w.get(order.id)).body;
      expect(detail.timeline.map((t: { to: string }) => t.to)).toEqual(['pending_approval', 'approved', 'submitting', 'submitted']);
    });
  });

  describe('approves racing a resolve that changes the patient', () => {
    let w: Awaited<ReturnType<typeof ordersWorld>>;
    beforeAll(async () => {
      w = await ordersWorld(app, 'Races', { alphaSettings: SLOW, betaSettings: SLOW });
    });

    // The provider is licensed in CA only; the resolve moves the order to the TX patient. Whichever lands
    // first, an approval never sends a patient other than the order's, nor one the provider may not treat.
    it('either the approval wins with the CA patient, or it is refused and the order waits with the TX patient', async () => {
      const ids = await Promise.all(Array.from({ length: 10 }, async () => (await w.create()).body.id as string));
      const outcomes = await Promise.all(
        ids.map((id) => Promise.all([w.approve(id), w.act(id, 'resolve', w.key, { patientId: w.patients.tx, confirmAmber: true })])),
      );
      for (const [i, [approve, resolve]] of outcomes.entries()) {
        const order = (await w.get(ids[i])).body;
        const book = await query<{ patient: string }>(app, sql`select payload->>'patientId' as patient from simulated_pharmacy_orders where payload->>'orderId' = ${ids[i]}`);
        if (approve.status === 201) {
          expect(resolve.status).toBe(409);
          expect(order).toMatchObject({ status: 'submitted', patientId: w.patients.ca });
          expect(book).toEqual([{ patient: w.patients.ca }]);
        } else {
          expect([403, 409]).toContain(approve.status);
          expect(resolve.status).toBe(201);
          expect(order).toMatchObject({ status: 'pending_approval', patientId: w.patients.tx, approvedAt: null });
          expect(book).toEqual([]);
          expect(await dispatchesOf(app, ids[i])).toEqual([]);
        }
      }
    });

    it('a move guarded by the version an approval read changes nothing once a resolve has changed the order', async () => {
      const id = (await w.create()).body.id as string;
      const [{ version }] = await query<{ version: string }>(app, sql`select xmin::text as version from orders where id = ${id}`);
      expect((await w.act(id, 'resolve', w.key, { patientId: w.patients.tx, confirmAmber: true })).status).toBe(201);
      const db = app.services.database.db;
      const scope = { tenantId: w.tenantId, livemode: false };
      const order = (await scoped(db, scope).get(orders, id))!;
      const provider = { kind: 'user' as const, id: w.provider.id };
      expect(await transition(db, scope, order, ['pending_approval'], 'approved', provider, { guard: unchangedSince(version) })).toBeNull();
      expect((await w.get(id)).body.timeline).toHaveLength(2);
      const [now] = await query<{ version: string }>(app, sql`select xmin::text as version from orders where id = ${id}`);
      expect(await transition(db, scope, order, ['pending_approval'], 'approved', provider, { guard: unchangedSince(now.version) })).toMatchObject({ status: 'approved' });
    });
  });

  describe('submits after a pharmacy rejected the order and it was rerouted', () => {
    let w: Awaited<ReturnType<typeof ordersWorld>>;
    beforeAll(async () => {
      w = await ordersWorld(app, 'Resubmits', { betaSettings: SLOW });
      const script = await app.request('PATCH', `/v1/pharmacies/${w.pharmacies.alpha}`, { key: w.key, body: { settings: { behavior: 'reject', rejectReasonCode: 'out_of_stock' } } });
      expect(script.status).toBe(200);
    });

    it.each(KEY_MODES)('%s: exactly one new round, and one pharmacy order at the new pharmacy', async (mode) => {
      const order = (await w.create()).body;
      expect((await w.approve(order.id)).status).toBe(201);
      const [first] = await dispatchesOf(app, order.id);
      expect(first).toMatchObject({ round: 1, connection_id: w.pharmacies.alpha });
      // The rejection reaches us by the pharmacy's signed callback, or by the worker's sync, whichever is first.
      const cb = await sendCallback(app, w.pharmacies.alpha, w.pharmacies.alphaSecret, { idempotencyKey: first.id, status: 'rejected', reasonCode: 'out_of_stock' });
      expect(cb.status).toBe(200);
      expect(['applied', 'duplicate']).toContain(cb.body.outcome);
      await waitFor(async () => (await w.get(order.id)).body.status === 'rejected', { what: 'the rejection' });

      const reroute = await w.act(order.id, 'reroute');
      expect(reroute.status).toBe(201);
      expect(reroute.body).toEqual({ rerouted: true, connectionId: w.pharmacies.beta });

      const responses = await Promise.all(keysFor(mode, 20).map((k) => w.act(order.id, 'submit', w.key, {}, k)));
      const winner = expectOneWinner(responses, mode);
      expect(winner.body).toMatchObject({ id: order.id, status: 'submitted', pharmacyConnectionId: w.pharmacies.beta });

      const dispatches = await dispatchesOf(app, order.id);
      expect(dispatches.map((d) => [d.round, d.connection_id])).toEqual([
        [1, w.pharmacies.alpha],
        [2, w.pharmacies.beta],
      ]);
      expect(dispatches[1].status).toBe('acknowledged');
      const book = await bookRowsOf(app, order.id);
      expect(book.filter((b) => b.connection_id === w.pharmacies.alpha)).toHaveLength(1);
      expect(book.filter((b) => b.connection_id === w.pharmacies.beta)).toEqual([expect.objectContaining({ idempotency_key: dispatches[1].id })]);
      expect(await routedEventsOf(app, order.id, w.pharmacies.beta)).toHaveLength(1);
      expect(await routedEventsOf(app, order.id)).toHaveLength(2);
      const timeline = (await w.get(order.id)).body.timeline.map((t: { to: string }) => t.to);
      expect(timeline).toEqual(['pending_approval', 'approved', 'submitting', 'submitted', 'rejected', 'approved', 'submitting', 'submitted']);
    });
  });
});


describe('an acknowledgement that arrives after the order moved on (slow http pharmacies; PGlite and PostgreSQL)', () => {
  let app: TestApp | undefined;
  let remotes: TestPharmacy[] = [];
  let gates: GatedProxy[] = [];
  afterEach(async () => {
    await Promise.all(gates.map((g) => g.close()));
    await Promise.all(remotes.map((r) => r.close()));
    await app?.close();
    [app, remotes, gates] = [undefined, [], []];
  });

  /**
   * Each pharmacy is reached through a gate (tests/helpers/gated-proxy.ts): a submit held there has not landed
   * at the pharmacy until the test releases it, so "slow" is an order of events, not a delay a slow host outruns.
   */
  async function liveWorld(env: Record<string, string>, names: string[]) {
    app = await startTestApp(env);
    const lw = await ordersWorld(app, 'Slow pharmacies', { mode: 'live' });
    const catalogs = catalogWorld(app, lw.key);
    remotes = await Promise.all(names.map(() => startTestPharmacy()));
    gates = await Promise.all(remotes.map((r) => startGatedProxy(r.url)));
    const conns = [];
    for (const [i, name] of names.entries()) {
      // The adapter's longest timeout: a submit waits at the gate for as long as the test needs, never timing out.
      const conn = await catalogs.pharmacy(name, ['CA'], { baseUrl: gates[i].url, timeoutMs: 30_000 }, { adapter: 'http' });
      remotes[i].secret = conn.secret;
      // Cheaper than the simulated pharmacies, in this order.
      await catalogs.approvedCatalog(conn.id, [['GLP', `${name}-GLP`, i + 1, 50, 1]]);
      conns.push(conn);
    }
    return { app, lw, conns };
  }
  const isSubmit = (r: GatedRequest) => r.method === 'POST' && r.path === '/orders';
  /** The submit has reached the gate: it is in flight, and has not landed at the pharmacy. */
  const submitHeld = (g: GatedProxy) => waitFor(() => g.held.some(isSubmit), { timeoutMs: 30_000, what: 'the submit to reach the pharmacy’s gate' });

  it('a late acknowledgement of a rerouted round does not stand in for the new round', async () => {
    // The worker dispatches, one job at a time: round 2 waits while round 1 is still at the first pharmacy.
    const { app, lw, conns } = await liveWorld({ DISPATCH_INLINE: 'false', RUN_WORKER: 'true', DISPATCH_GRACE_MS: '0', WORKER_CONCURRENCY: '1', WORKER_POLL_MS: '50' }, ['R1', 'R2']);
    const [r1, r2] = remotes;
    gates[0].hold(isSubmit);
    const order = (await lw.create()).body;
    const approving = lw.approve(order.id);
    await submitHeld(gates[0]);
    expect(r1.orders.size).toBe(0);
    const [first] = await dispatchesOf(app, order.id);
    // R1 declines by callback before its (slow) answer to the submit arrives; the clinic reroutes and resubmits.
    const cb = await sendCallback(app, conns[0].id, conns[0].secret, { idempotencyKey: first.id, status: 'rejected', reasonCode: 'out_of_stock' });
    expect(cb.body.outcome).toBe('applied');
    expect((await lw.act(order.id, 'reroute')).body).toEqual({ rerouted: true, connectionId: conns[1].id });
    const submitting = lw.act(order.id, 'submit');
    // Round 2 is committed (and waits for the worker, busy with round 1): only now does R1's submit land and answer.
    await waitFor(async () => (await dispatchesOf(app, order.id)).length === 2, { timeoutMs: 30_000, what: 'the resubmit to commit round 2' });
    gates[0].release();
    await Promise.all([approving, submitting]);
    await waitFor(async () => (await dispatchesOf(app, order.id)).every((d) => d.status !== 'pending'), { timeoutMs: 30_000, what: 'both rounds to settle' });

    expect([...r1.orders.keys()]).toEqual([first.id]);
    const detail = (await lw.get(order.id)).body;
    expect(detail).toMatchObject({ status: 'submitted', pharmacyConnectionId: conns[1].id });
    // Today: round 1's late acknowledgement moves round 2's order to `submitted` (actor R1), round 2 is then
    // cancelled unsent, and R2 never hears of the order the API says it has.
    // The one move to `submitted` is round 2's, by R2. (R1's late acknowledgement may add its own note after it,
    // submitted → submitted, depending on which the worker records last; that note moves nothing.)
    const moves = detail.timeline.filter((e: { from: string | null; to: string }) => e.from === 'submitting' && e.to === 'submitted');
    expect(moves).toEqual([expect.objectContaining({ actorId: conns[1].id })]);
    expect(detail.timeline.at(-1)).toMatchObject({ to: 'submitted' });
    expect([...r2.orders.keys()]).toEqual([(await dispatchesOf(app, order.id))[1].id]);
    expect(await routedEventsOf(app, order.id)).toEqual([{ pharmacy: conns[1].id }]);
  }, 60_000);

  it('a cancel that reaches the pharmacy before its slow submit lands is sent again once the submit is acknowledged', async () => {
    const { app, lw } = await liveWorld({ RUN_WORKER: 'true', WORKER_POLL_MS: '50' }, ['R1']);
    const [r1] = remotes;
    gates[0].hold(isSubmit); // the submit lands at the pharmacy only once released; the cancel is answered at once
    const order = (await lw.create()).body;
    const approving = lw.approve(order.id);
    await submitHeld(gates[0]);
    expect((await lw.act(order.id, 'cancel')).body.status).toBe('cancelled');
    // The cancel reached the pharmacy, which had nothing yet, and its job closed the round: now the submit lands.
    await waitFor(async () => (await dispatchesOf(app, order.id)).every((d) => d.status === 'cancelled'), { timeoutMs: 30_000, what: 'the cancel job to close the round' });
    expect(r1.requests.filter((q) => q.method === 'POST' && q.path.endsWith('/cancel'))).toHaveLength(1);
    expect(r1.orders.size).toBe(0);
    gates[0].release();
    await approving;
    // Today: the cancel found nothing at the pharmacy and marked the dispatch cancelled; the acknowledgement
    // that follows finds no pending dispatch and is dropped, so the pharmacy fills a cancelled order.
    await waitFor(() => r1.orders.size > 0 && [...r1.orders.values()].every((o) => o.status === 'cancelled'), { timeoutMs: 30_000, what: 'the pharmacy to cancel its order' });
    expect(r1.orders.size).toBe(1);
    expect((await lw.get(order.id)).body.status).toBe('cancelled');
    expect((await dispatchesOf(app, order.id)).map((d) => d.status)).toEqual(['cancelled']);
  }, 60_000);
});
