import { createTRPCClient, httpLink } from '@trpc/client';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { query } from './helpers/dispatch';
import { createUserAndLogin, startTestApp, type TestApp } from './helpers/harness';
import { trpcFailure } from './helpers/trpc';
import { ordersWorld } from './helpers/orders-world';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';

/**
 * The console's overview and usage reads over /api/trpc: counts of the caller's tenant and mode only, UTC
 * days with the quiet ones as 0, and blocks present only for the scopes that reach them.
 */
let app: TestApp;
let a: Awaited<ReturnType<typeof ordersWorld>>;
let b: Awaited<ReturnType<typeof ordersWorld>>;
const ids: Record<string, string> = {};

const client = (key: string, mode?: 'live') =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${key}`, ...(mode ? { 'x-mode': mode } : {}) } })] });
const today = () => new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

const failure = async (p: Promise<unknown>) => (await trpcFailure(p)).data;

async function created(res: { status: number; text: string; body: { id: string } }) {
  if (res.status !== 201) throw new Error(`order create failed: ${res.status} ${res.text}`);
  return res.body.id;
}

beforeAll(async () => {
  app = await startTestApp({ ORDER_SYNC_INTERVAL_MS: '60000' });
  a = await ordersWorld(app, 'Overview A');
  b = await ordersWorld(app, 'Overview B');

  // Clinic A, sandbox: two routed (one three days ago), two waiting (one for two hours), one draft,
  // one from last month, and one moved to live mode (so it belongs to the other mode).
  ids.routedToday = await created(await a.create());
  ids.routedEarlier = await created(await a.create());
  for (const id of [ids.routedToday, ids.routedEarlier]) {
    const res = await a.approve(id);
    if (res.body.status !== 'submitted') throw new Error(`approve did not route: ${res.status} ${res.text}`);
  }
  ids.waitingLong = await created(await a.create());
  ids.waitingShort = await created(await a.create());
  ids.draft = await created(await a.create({ patientId: undefined }));
  ids.lastMonth = await created(await a.create());
  ids.live = await created(await a.create());
  const liveApproved = await a.approve(ids.live);
  if (liveApproved.body.status !== 'submitted') throw new Error(liveApproved.text);

  await query(app, sql`update order_transitions set at = at - interval '3 days' where order_id = ${ids.routedEarlier} and to_status = 'submitted'`);
  await query(app, sql`update order_transitions set at = now() - interval '2 hours' where order_id = ${ids.waitingLong} and to_status = 'pending_approval'`);
  await query(app, sql`update orders set created_at = date_trunc('month', now() at time zone 'UTC') at time zone 'UTC' - interval '1 day' where id = ${ids.lastMonth}`);
  await query(app, sql`update orders set status = 'cancelled' where id = ${ids.lastMonth}`);
  // The same clinic's live mode: a billable routed order that no sandbox count may include.
  await query(app, sql`update orders set livemode = true, first_routed_at = now() where id = ${ids.live}`);
  await query(app, sql`update order_transitions set livemode = true where order_id = ${ids.live}`);

  // Clinic B has orders of its own, which clinic A never counts.
  for (let i = 0; i < 3; i++) await b.approve(await created(await b.create()));
});
afterAll(async () => app?.close());

describe('overview.summary', () => {
  it('counts orders by status today and this month, in the caller’s tenant and mode only', async () => {
    const o = await client(a.key).overview.summary.query();
    expect(o.mode).toBe('sandbox');
    expect(o.orders?.today).toMatchObject({ submitted: 2, pending_approval: 2, draft: 1, cancelled: 0, total: 5 });
    expect(o.orders?.month).toMatchObject({ submitted: 2, pending_approval: 2, draft: 1, cancelled: 0, total: 5 });

    const live = await client(a.liveKey).overview.summary.query();
    expect(live.mode).toBe('live');
    expect(live.orders?.today).toMatchObject({ submitted: 1, total: 1 });
    expect(live.approvalQueue).toEqual({ waiting: 0, oldest: null });

    const other = await client(b.key).overview.summary.query();
    expect(other.orders?.today).toMatchObject({ submitted: 3, pending_approval: 0, total: 3 });
  });

  it('reports the approval queue’s length and the order waiting longest', async () => {
    const { approvalQueue } = await client(a.key).overview.summary.query();
    expect(approvalQueue?.waiting).toBe(2);
    expect(approvalQueue?.oldest?.orderId).toBe(ids.waitingLong);
    expect(approvalQueue?.oldest?.ageSeconds).toBeGreaterThanOrEqual(2 * 3600 - 5);
    expect(approvalQueue?.oldest?.ageSeconds).toBeLessThan(2 * 3600 + 600);
  });

  it('lists endpoints whose newest delivery failed, and not those that recovered', async () => {
    const trpc = client(a.key);
    const broken = await trpc.webhooks.createWebhookEndpoint.mutate({ url: 'https://hooks.example.test/broken', events: ['order.shipped'] });
    const recovered = await trpc.webhooks.createWebhookEndpoint.mutate({ url: 'https://hooks.example.test/recovered', events: ['order.shipped'] });
    const delivery = (id: string, endpointId: string, status: string, code: number | null) =>
      query(
        app,
        sql`insert into webhook_deliveries (id, tenant_id, livemode, endpoint_id, event_id, event_type, trigger, status, attempts, response_code, last_error, created_at, last_attempt_at, next_attempt_at)
            values (${id}, ${a.tenantId}, false, ${endpointId}, 'evt_overview_test', 'order.shipped', 'event', ${status}, 1, ${code}, ${status === 'delivered' ? null : 'HTTP 500'}, now(), now(), now())`,
      );
    await delivery('whd_overview_1', broken.id, 'delivered', 200);
    await delivery('whd_overview_2', broken.id, 'failed', 500);
    await delivery('whd_overview_3', broken.id, 'dead', 500);
    await delivery('whd_overview_4', recovered.id, 'dead', 500);
    await delivery('whd_overview_5', recovered.id, 'delivered', 200);

    const { webhooks } = await trpc.overview.summary.query();
    expect(webhooks?.endpoints).toBe(2);
    expect(webhooks?.failing).toHaveLength(1);
    expect(webhooks?.failing[0]).toMatchObject({ id: broken.id, status: 'enabled', failedDeliveries: 2, lastDelivery: { status: 'dead', responseCode: 500, eventType: 'order.shipped' } });
    // The live mode has its own endpoints: none.
    expect((await client(a.liveKey).overview.summary.query()).webhooks).toEqual({ endpoints: 0, failing: [] });
  });

  it('shows each block only to the scopes that reach it, and refuses a credential with none', async () => {
    const keyWith = async (scopes: string[]) => {
      const res = await app.request('POST', '/v1/developer/keys', { key: a.key, body: { name: scopes.join(' '), keyType: 'restricted', scopes } });
      if (res.status !== 201) throw new Error(res.text);
      return res.body.key as string;
    };
    const hooksOnly = await client(await keyWith(['webhooks.manage'])).overview.summary.query();
    expect(hooksOnly.webhooks).toBeDefined();
    expect(hooksOnly).not.toHaveProperty('orders');
    expect(hooksOnly).not.toHaveProperty('approvalQueue');
    expect(hooksOnly).not.toHaveProperty('usage');

    const provider = await client(a.provider.token).overview.summary.query();
    expect(provider.approvalQueue?.waiting).toBe(2);
    expect(provider.orders).toBeDefined();
    expect(provider).not.toHaveProperty('webhooks');
    expect(provider).not.toHaveProperty('usage');

    const eventsOnly = client(await keyWith(['events.read']));
    expect(await failure(eventsOnly.overview.summary.query())).toMatchObject({ type: 'permission_error', code: 'missing_scope', httpStatus: 403 });
    expect(await failure(eventsOnly.overview.routedOrdersDaily.query({}))).toMatchObject({ code: 'missing_scope', httpStatus: 403 });
    expect(await failure(client(a.provider.token).developer.billableRoutedDaily.query())).toMatchObject({ code: 'missing_scope', httpStatus: 403 });
  });

  it('gives an admin the usage against the plan', async () => {
    const admin = await createUserAndLogin(app, a.tenantId, { email: `admin-${Date.now()}@overview.test`, role: 'admin' });
    const { usage } = await client(admin.token).overview.summary.query();
    expect(usage).toMatchObject({ object: 'usage', ordersRouted: 1 });
  });
});

describe('overview.summary: the intake review queue beside the approval queue (issue 50 item 5)', () => {
  const subs: Record<string, string> = {};
  const submit = async (key: string, patientId: string, extra: Record<string, unknown> = {}) => {
    const res = await app.request('POST', '/v1/intake/submissions', { key, body: { questionnaireKey: 'overview-intake', patientId, answers: eligibleAnswers(extra) } });
    if (res.status !== 201) throw new Error(`submission failed: ${res.status} ${res.text}`);
    return res.body.id as string;
  };

  beforeAll(async () => {
    await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument('overview-intake'));
    await approvedQuestionnaire(app, { tenantId: b.tenantId, livemode: false }, weightDocument('overview-intake'));
    // Clinic A, sandbox: three waiting (one for three hours, one held by a patient match), one disqualified, one rejected.
    subs.old = await submit(a.key, a.patients.ca);
    subs.recent = await submit(a.key, a.patients.tx);
    subs.held = await submit(a.key, a.patients.ca);
    subs.disqualified = await submit(a.key, a.patients.ca, { pregnant: true });
    subs.rejected = await submit(a.key, a.patients.ca);
    const rejected = await app.request('POST', `/v1/intake/submissions/${subs.rejected}/review`, { key: a.provider.token, body: { decision: 'reject', note: 'Not now' } });
    if (rejected.status !== 200) throw new Error(rejected.text);
    await query(app, sql`update intake_submissions set created_at = now() - interval '3 hours' where id = ${subs.old}`);
    await query(app, sql`update intake_submissions set identity_status = 'mismatch', identity_fields = '["dateOfBirth"]'::jsonb where id = ${subs.held}`);
    // Clinic B's own submission, which clinic A never counts.
    await submit(b.key, b.patients.ca);
  });

  it('counts the submissions waiting for review in the provider’s tenant and mode, those held by a patient match, and the oldest', async () => {
    const { intakeQueue, approvalQueue } = await client(a.provider.token).overview.summary.query();
    expect(approvalQueue?.waiting).toBe(2);
    expect(intakeQueue).toMatchObject({ waiting: 3, identityToResolve: 1, oldest: { submissionId: subs.old } });
    expect(intakeQueue?.oldest?.ageSeconds).toBeGreaterThanOrEqual(3 * 3600 - 5);
    expect(intakeQueue?.oldest?.ageSeconds).toBeLessThan(3 * 3600 + 600);
    expect(Date.parse(intakeQueue!.oldest!.waitingSince)).toBeLessThan(Date.now() - 3 * 3600_000 + 5000);
    // No names, answers or rules: counts and an id.
    expect(JSON.stringify(intakeQueue)).not.toMatch(/Quinn|Planted|pregnan/);

    const live = await client(a.provider.token, 'live').overview.summary.query();
    expect(live.intakeQueue).toEqual({ waiting: 0, identityToResolve: 0, oldest: null });
    const other = await createUserAndLogin(app, b.tenantId, { email: `dr-b-${Date.now()}@overview.test`, role: 'provider' });
    expect((await client(other.token).overview.summary.query()).intakeQueue).toMatchObject({ waiting: 1, identityToResolve: 0 });
  });

  it('shows the block only to intake.review: not to a secret key, an admin or a developer', async () => {
    expect(await client(a.key).overview.summary.query()).not.toHaveProperty('intakeQueue');
    for (const role of ['admin', 'developer']) {
      const user = await createUserAndLogin(app, a.tenantId, { email: `${role}-intake-${Date.now()}@overview.test`, role });
      expect(await client(user.token).overview.summary.query()).not.toHaveProperty('intakeQueue');
    }
  });
});

describe('overview.routedOrdersDaily', () => {
  it('counts routed orders per UTC day, with 0 for the days without any', async () => {
    const series = await client(a.key).overview.routedOrdersDaily.query({ days: 7 });
    expect(series.days.map((d) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map(daysAgo));
    expect(series.days.map((d) => d.count)).toEqual([0, 0, 0, 1, 0, 0, 1]);
    expect(series.total).toBe(2);
    expect(series.to.slice(0, 10)).toBe(new Date(Date.now() + 86_400_000).toISOString().slice(0, 10));
  });

  it('defaults to 30 days, and never counts another clinic or the other mode', async () => {
    const series = await client(a.key).overview.routedOrdersDaily.query({});
    expect(series.days).toHaveLength(30);
    expect(series.days.at(-1)?.date).toBe(today());
    expect(series.total).toBe(2);
    const live = await client(a.liveKey).overview.routedOrdersDaily.query({ days: 7 });
    expect(live.days.map((d) => d.count)).toEqual([0, 0, 0, 0, 0, 0, 1]);
    expect((await client(b.key).overview.routedOrdersDaily.query({ days: 7 })).total).toBe(3);
  });

  it('refuses a range outside 1–90 days with the field named', async () => {
    expect(await failure(client(a.key).overview.routedOrdersDaily.query({ days: 0 }))).toMatchObject({ type: 'validation_error', param: 'days', httpStatus: 400 });
    expect(await failure(client(a.key).overview.routedOrdersDaily.query({ days: 91 }))).toMatchObject({ param: 'days', httpStatus: 400 });
  });
});

describe('developer.billableRoutedDaily', () => {
  it('charts the billable count: live orders this billing period, whichever mode asks, matching getUsage', async () => {
    for (const key of [a.key, a.liveKey]) {
      const series = await client(key).developer.billableRoutedDaily.query();
      const usage = await client(key).developer.getUsage.query({});
      expect(series.total).toBe(usage.ordersRouted);
      expect(series.total).toBe(1);
      expect(series.from).toBe(usage.period.start);
      expect(series.days[0]?.date).toBe(usage.period.start.slice(0, 10));
      expect(series.days.at(-1)).toEqual({ date: today(), count: 1 });
      expect(series.days.slice(0, -1).every((d) => d.count === 0)).toBe(true);
    }
    expect((await client(b.key).developer.billableRoutedDaily.query()).total).toBe(0);
  });
});

