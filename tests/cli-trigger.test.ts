import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '@/bin/run-cli';
import { EVENT_TYPES } from '@/server/domain/events/catalog';
import { RECIPES, NOT_TRIGGERABLE } from '@/bin/dev/trigger-recipes';
import { createTenantWithKeys, OPS_KEY, startTestApp, VALID_NPI, type TestApp } from './helpers/harness';
import { TEST_TIMEOUT_MS } from './helpers/webhooks';
import { seedDemo, type DemoSeed } from '@/server/domain/seed/demo';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS * 2 });

let app: TestApp;
let demo: DemoSeed;
beforeAll(async () => {
  // The worker plays the simulated pharmacy's script (ship, deliver).
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50' });
  // The demo clinic a fresh `npm start` seeds (first, while the database has no tenant): key, provider, flow.
  demo = (await seedDemo(app.services.database.db))!;
});
afterAll(async () => app?.close());

const env = { ...process.env, LOG_LEVEL: 'silent' };
const trigger = (...args: string[]) => runCli(['trigger', ...args, '--base-url', app.baseUrl], env);
/** The last line of --json output: the command's result. */
const result = (r: { stdout: string }) => JSON.parse(r.stdout.trim().split('\n').pop()!);

describe('npm run cli -- trigger', () => {
  it('covers every event type the product emits: a recipe, or a stated reason', () => {
    expect([...Object.keys(RECIPES), ...Object.keys(NOT_TRIGGERABLE)].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('makes an approved order that ships, through a provider it enrols in two-factor authentication, then signs in with TOTP', async () => {
    const t = await createTenantWithKeys(app, 'Trigger');
    const email = `dr-trigger-${Date.now()}@clinic.test`;
    const password = 'correct horse battery staple';
    const user = await app.request('POST', `/v1/ops/tenants/${t.tenantId}/users`, {
      key: OPS_KEY,
      body: { email, password, role: 'provider', npi: VALID_NPI, npiVerified: true, licensedStates: ['TX'] },
    });
    expect(user.status, user.text).toBe(201);

    const noProvider = await trigger('order.shipped', '--api-key', t.sandboxKey);
    expect(noProvider.code).toBe(2);
    expect(noProvider.stderr).toContain('--provider-email');

    const shipped = await trigger('order.shipped', '--api-key', t.sandboxKey, '--provider-email', email, '--provider-password', password, '--json');
    expect(shipped.code, shipped.stdout + shipped.stderr).toBe(0);
    const enrolled = shipped.stdout.split('\n').find((l) => l.includes('TOTP secret'));
    const totp = /secret \(shown once\): ([A-Z2-7]+)/.exec(enrolled ?? '')?.[1];
    expect(totp, shipped.stdout).toBeDefined();
    const made = result(shipped);
    expect(made.created).toMatchObject({ patient: expect.stringMatching(/^pat_/), product: expect.stringMatching(/^prd_/), pharmacy: expect.stringMatching(/^phc_/), order: expect.stringMatching(/^ord_/) });
    expect(made.event).toMatchObject({ type: 'order.shipped', data: { orderId: made.created.order, pharmacyConnectionId: made.created.pharmacy, status: 'shipped' } });
    const order = await app.request('GET', `/v1/orders/${made.created.order}`, { key: t.sandboxKey });
    expect(order.body.patient.address.state ?? order.body.patient.state).toBe('TX'); // a state the provider is licensed in

    // Enrolled now: the password alone no longer signs in; the TOTP secret does.
    const withoutCode = await trigger('order.rejected', '--api-key', t.sandboxKey, '--provider-email', email, '--provider-password', password);
    expect(withoutCode.code).toBe(2);
    expect(withoutCode.stderr).toContain('--provider-totp-secret');
    const rejected = await trigger('order.rejected', '--api-key', t.sandboxKey, '--provider-email', email, '--provider-password', password, '--provider-totp-secret', totp!);
    expect(rejected.code, rejected.stdout + rejected.stderr).toBe(0);
    expect(rejected.stdout).toMatch(/^Triggered order\.rejected: evt_[0-9a-z]{26}\n {2}patient +pat_/);
  });

  it("works on the demo clinic with the key and provider a fresh `npm start` prints: intake, flow and order events", async () => {
    const provider = demo.people.find((p) => p.role === 'provider')!;
    for (const type of ['intake.submission.created', 'flow.viewed', 'step.completed', 'flow.qualified', 'flow.disqualified', 'flow.session.completed']) {
      const r = await trigger(type, '--api-key', demo.sandboxKey, '--json');
      expect(r.code, `${type}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(result(r).event.type).toBe(type);
    }
    const delivered = await trigger('order.delivered', '--api-key', demo.sandboxKey, '--provider-email', provider.email, '--provider-password', provider.password, '--json');
    expect(delivered.code, delivered.stdout + delivered.stderr).toBe(0);
    expect(result(delivered).event).toMatchObject({ type: 'order.delivered', data: { status: 'delivered' } });
  });

  it('says what a bare tenant lacks for intake and flow events', async () => {
    const t = await createTenantWithKeys(app, 'Trigger bare');
    const intake = await trigger('intake.submission.created', '--api-key', t.sandboxKey);
    expect(intake.code).toBe(2);
    expect(intake.stderr).toContain('no approved questionnaire');
    const flow = await trigger('flow.viewed', '--api-key', t.sandboxKey);
    expect(flow.code).toBe(2);
    expect(flow.stderr).toContain('No sandbox embed key serves a flow');
    const notMade = await trigger('flow.published', '--api-key', t.sandboxKey);
    expect(notMade.code).toBe(2);
    expect(notMade.stderr).toContain("flow.published is not made by the CLI");
    const unknown = await trigger('order.teleported', '--api-key', t.sandboxKey);
    expect(unknown.stderr).toContain("Unknown event type 'order.teleported'");
  });

  it('is refused in live mode with a clear message, before anything is created', async () => {
    const t = await createTenantWithKeys(app, 'Trigger live');
    const live = await trigger('order.cancelled', '--api-key', t.liveKey);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('trigger runs in sandbox only');
    const orders = await app.request('GET', '/v1/orders', { key: t.liveKey });
    expect(orders.body).toEqual([]);
  });
});
