import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runCli } from '@/bin/run-cli';
import { EVENT_TYPES } from '@/server/domain/events/catalog';
import { RECIPES, NOT_TRIGGERABLE } from '@/bin/dev/trigger-recipes';
import { totpSecretOf } from '@/bin/dev/provider-session';
import { FIXTURES, pharmacyName } from '@/bin/dev/trigger-fixtures';
import type { AppRouter } from '@/server/api/root';
import { createTenantWithKeys, createUserAndLogin, OPS_KEY, startTestApp, VALID_NPI, type TestApp } from './helpers/harness';
import { freshTotp } from './helpers/totp';
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
/** The state the order's patient lives in, read back over the API. */
async function patientStateOf(key: string, orderId: string): Promise<string> {
  const order = await app.request('GET', `/v1/orders/${orderId}`, { key });
  expect(order.status, order.text).toBe(200);
  return order.body.patient.address?.state ?? order.body.patient.state;
}
/** How many pharmacy connections and products the key's tenant and mode hold (fewer than a page of 100 here). */
async function setUpCounts(key: string) {
  const [pharmacies, products] = await Promise.all([app.request('GET', '/v1/pharmacies?limit=100', { key }), app.request('GET', '/v1/products?limit=100', { key })]);
  expect(pharmacies.body.length).toBeLessThan(100);
  expect(products.body.length).toBeLessThan(100);
  return { pharmacies: pharmacies.body.length as number, products: products.body.length as number };
}
/** A provider of the tenant, made by ops with attested licences. */
async function makeProvider(tenantId: string, name: string, licensedStates: string[]) {
  const email = `dr-${name}-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@clinic.test`;
  const user = await app.request('POST', `/v1/ops/tenants/${tenantId}/users`, {
    key: OPS_KEY,
    body: { email, password: 'correct horse battery staple', role: 'provider', npi: VALID_NPI, npiVerified: true, licensedStates },
  });
  expect(user.status, user.text).toBe(201);
  return { email, password: 'correct horse battery staple' };
}

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
    const before = await setUpCounts(demo.sandboxKey);
    const delivered = await trigger('order.delivered', '--api-key', demo.sandboxKey, '--provider-email', provider.email, '--provider-password', provider.password, '--json');
    expect(delivered.code, delivered.stdout + delivered.stderr).toBe(0);
    expect(result(delivered).event).toMatchObject({ type: 'order.delivered', data: { status: 'delivered' } });
    // The patient lives in a state the demo provider is licensed in, as the team page shows them to the demo admin.
    const admin = demo.people.find((p) => p.role === 'admin')!;
    const login = await app.request('POST', '/v1/auth/login', { body: { email: admin.email, password: admin.password } });
    const team = await app.request('GET', '/v1/users', { key: login.body.accessToken });
    const licensed = team.body.find((u: { email: string }) => u.email === provider.email).provider.licensedStates;
    expect(licensed.length).toBeGreaterThan(0);
    expect(licensed).toContain(await patientStateOf(demo.sandboxKey, result(delivered).created.order));
    // The demo's products and pharmacies are left alone; trigger adds its own pair once.
    expect(await setUpCounts(demo.sandboxKey)).toEqual({ pharmacies: before.pharmacies + 1, products: before.products + 1 });
  });

  it("puts each run's new patient in a state the signing-in provider is licensed in, and reuses its pharmacy and product", async () => {
    const t = await createTenantWithKeys(app, 'Trigger reuse');
    await makeProvider(t.tenantId, 'california', ['CA']); // the team's other provider: not the one signing in
    const ny = await makeProvider(t.tenantId, 'newyork', ['NY']);
    const asNy = ['--api-key', t.sandboxKey, '--provider-email', ny.email, '--provider-password', ny.password];

    const first = await trigger('order.shipped', ...asNy, '--json');
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const totp = /secret \(shown once\): ([A-Z2-7]+)/.exec(first.stdout)?.[1];
    expect(totp, first.stdout).toBeDefined();
    const one = result(first).created;
    expect(await patientStateOf(t.sandboxKey, one.order)).toBe('NY'); // not CA: the signing-in provider holds NY only
    const afterFirst = await setUpCounts(t.sandboxKey);
    expect(afterFirst).toEqual({ pharmacies: 1, products: 1 });
    const pharmacy = await app.request('GET', '/v1/pharmacies', { key: t.sandboxKey });
    expect(pharmacy.body[0]).toMatchObject({ id: one.pharmacy, name: pharmacyName('ships'), adapter: 'simulated', status: 'enabled', settings: { shipAfterSeconds: 0 } });

    // Someone disables it in the console between runs: the next run enables it again rather than adding another.
    const disabled = await app.request('PATCH', `/v1/pharmacies/${one.pharmacy}`, { key: t.sandboxKey, body: { status: 'disabled' } });
    expect(disabled.status, disabled.text).toBe(200);

    const second = await trigger('order.shipped', ...asNy, '--provider-totp-secret', totp!, '--json');
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).not.toContain('TOTP secret (shown once)');
    const two = result(second).created;
    expect(two).toMatchObject({ pharmacy: one.pharmacy, product: one.product, catalog: one.catalog }); // the same set-up…
    expect(two.patient).not.toBe(one.patient); // …with the run's own patient and order
    expect(two.order).not.toBe(one.order);
    expect(result(second).event).toMatchObject({ type: 'order.shipped', data: { orderId: two.order, pharmacyConnectionId: one.pharmacy } });
    expect(await patientStateOf(t.sandboxKey, two.order)).toBe('NY');
    expect(await setUpCounts(t.sandboxKey)).toEqual(afterFirst);
    expect((await app.request('GET', '/v1/pharmacies', { key: t.sandboxKey })).body[0]).toMatchObject({ id: one.pharmacy, status: 'enabled' });

    // order.cancelled needs no approval: given a provider, its patient lives where they are licensed; given none, in CA.
    const fl = await makeProvider(t.tenantId, 'florida', ['FL', 'GA']);
    const cancelledFl = await trigger('order.cancelled', '--api-key', t.sandboxKey, '--provider-email', fl.email, '--provider-password', fl.password, '--json');
    expect(cancelledFl.code, cancelledFl.stdout + cancelledFl.stderr).toBe(0);
    expect(await patientStateOf(t.sandboxKey, result(cancelledFl).created.order)).toBe('FL');
    const cancelledBare = await trigger('order.cancelled', '--api-key', t.sandboxKey, '--json');
    expect(cancelledBare.code, cancelledBare.stdout + cancelledBare.stderr).toBe(0);
    expect(cancelledBare.stdout).toContain('lives in CA: give --provider-email');
    expect(await patientStateOf(t.sandboxKey, result(cancelledBare).created.order)).toBe('CA');
    expect(result(cancelledBare).created).toMatchObject({ pharmacy: result(cancelledFl).created.pharmacy, product: result(cancelledFl).created.product });
    // Two event kinds set up two scripted pharmacies, each once.
    expect(await setUpCounts(t.sandboxKey)).toEqual({ pharmacies: 2, products: 2 });
    const skus = (await app.request('GET', '/v1/products', { key: t.sandboxKey })).body.map((p: { sku: string }) => p.sku).sort();
    expect(skus).toEqual([FIXTURES.holds.sku, FIXTURES.ships.sku].sort());
  });

  it('signs in a provider who enrolled two-factor authentication in the console, given the secret the Account page showed', async () => {
    const t = await createTenantWithKeys(app, 'Trigger console MFA');
    const email = `dr-console-${Date.now()}@clinic.test`;
    const signedIn = await createUserAndLogin(app, t.tenantId, { email, role: 'provider', npi: VALID_NPI, npiVerified: true, licensedStates: ['WA'] });
    // What the Account page does (components/console/auth/mfa-enrollment.tsx): auth.mfaEnroll over /api/trpc shows the
    // QR code of otpauthUri and the secret as text; the first code from the app turns it on.
    const accountPage = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${signedIn.token}` } })] });
    const shown = await accountPage.auth.mfaEnroll.mutate({});
    expect(shown.secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(shown.otpauthUri).toContain(`secret=${shown.secret}`);
    await accountPage.auth.mfaVerify.mutate({ code: await freshTotp(shown.secret!) });
    const asProvider = ['--api-key', t.sandboxKey, '--provider-email', email, '--provider-password', signedIn.password];

    const withoutSecret = await trigger('order.submitted', ...asProvider);
    expect(withoutSecret.code).toBe(2);
    expect(withoutSecret.stderr).toContain('--provider-totp-secret');
    expect(withoutSecret.stderr).toContain('Account page');
    const notASecret = await trigger('order.submitted', ...asProvider, '--provider-totp-secret', '123456');
    expect(notASecret.code).toBe(2);
    expect(notASecret.stderr).toContain('not a TOTP secret');
    // Refused before anything was made.
    expect(await setUpCounts(t.sandboxKey)).toEqual({ pharmacies: 0, products: 0 });

    // The secret as a person copies it off the page (lower case, in groups) works as well as the QR code's URI.
    const typed = shown.secret!.toLowerCase().replace(/(.{4})/g, '$1 ');
    const submitted = await trigger('order.submitted', ...asProvider, '--provider-totp-secret', typed, '--json');
    expect(submitted.code, submitted.stdout + submitted.stderr).toBe(0);
    expect(submitted.stdout).not.toContain('Enrolled two-factor'); // signed in with the console's enrolment, not a new one
    expect(result(submitted).event).toMatchObject({ type: 'order.submitted', data: { orderId: result(submitted).created.order } });
    expect(await patientStateOf(t.sandboxKey, result(submitted).created.order)).toBe('WA');
    const me = await app.request('GET', '/v1/auth/me', { key: signedIn.token });
    expect(me.body.user.mfaEnabled).toBe(true);
  });

  it('reads a TOTP secret as shown, typed or scanned, and refuses what is none', () => {
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    expect(totpSecretOf(secret)).toBe(secret);
    expect(totpSecretOf(' jbsw y3dp ehpk 3pxp jbsw y3dp ehpk 3pxp ')).toBe(secret);
    expect(totpSecretOf(`otpauth://totp/Fulfillment%20Rail:dr%40clinic.test?secret=${secret}&issuer=Fulfillment%20Rail`)).toBe(secret);
    expect(() => totpSecretOf('otpauth://totp/x?issuer=y')).toThrow(/no secret=/);
    expect(() => totpSecretOf('12345678')).toThrow(/not a TOTP secret/);
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
