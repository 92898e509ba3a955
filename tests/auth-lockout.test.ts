import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { consoleForwardProof, FORWARD_PROOF, FORWARDED_CLIENT_IP } from '@/server/api/client-ip';
import { freshTotp } from './helpers/totp';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, OPS_KEY, readOutbox, startTestApp, type TestApp } from './helpers/harness';
import { TEST_TIMEOUT_MS, WAIT_MS } from './helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS });

// Requests come from distinct client addresses the way the console's come: forwarded with the proof.
const SECRET = 'lockout-test-secret-of-sufficient-length-0123';
let app: TestApp;
let t: Clinic;
const PASSWORD = 'correct horse battery staple';

beforeAll(async () => {
  app = await startTestApp({ AUTH_SECRET: SECRET });
  t = await createTenantWithKeys(app);
});
afterAll(async () => {
  await app?.close();
});
afterEach(() => vi.restoreAllMocks());

const login = (email: string, password: string, ip: string) =>
  app.request('POST', '/v1/auth/login', { body: { email, password }, headers: { [FORWARDED_CLIENT_IP]: ip, [FORWARD_PROOF]: consoleForwardProof(SECRET) } });

async function createUser(email: string) {
  const made = await app.request('POST', `/v1/ops/tenants/${t.tenantId}/users`, { key: OPS_KEY, body: { email, role: 'provider', password: PASSWORD } });
  expect(made.status).toBe(201);
}

/**
 * rate-limiter-flexible keeps its windows with Date.now (not the service's clock seam), so waiting out a delay
 * moves Date.now forward; everything else the service times (tokens, rows) reads `new Date()` and is unaffected.
 */
const realNow = Date.now.bind(Date);
function skipAhead(ms: number) {
  const offset = Date.now() - realNow() + ms;
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
}

const mailsTo = (email: string) => readOutbox(app).filter((m) => m.to === email);

describe('password sign-in under attack', () => {
  it('an attacker from one address cannot lock the owner out of a network they signed in from, and the owner is told once', async () => {
    await createUser('owner@clinic.test');
    expect((await login('owner@clinic.test', PASSWORD, '203.0.113.20')).status).toBe(200);
    // The alert is sent without being awaited, but the decision to send it, and the call, come before the answer.
    const sent = vi.spyOn(app.services.auth.mailer, 'send');

    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await login('owner@clinic.test', `guess-${i}`, '198.51.100.10')).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);

    // The old limit (10 per account, whatever the address) refused this for 15 minutes.
    const owner = await login('owner@clinic.test', PASSWORD, '203.0.113.20');
    expect(owner.status).toBe(200);
    expect(owner.body.accessToken).toBeTruthy();

    expect(sent.mock.calls.map(([m]) => m.to)).toEqual(['owner@clinic.test']);
    await vi.waitFor(() => expect(mailsTo('owner@clinic.test')).toHaveLength(1), { timeout: WAIT_MS, interval: 25 });
    const [alert] = mailsTo('owner@clinic.test');
    expect(alert.subject).toMatch(/failed sign-in attempts/i);
    expect(alert.text).not.toMatch(/guess-|198\.51\.100/);
    // One per window, not one per failure: later failures add none (each answered, so each sent what it was to).
    for (let i = 0; i < 3; i++) expect((await login('owner@clinic.test', `more-${i}`, '203.0.113.20')).status).toBe(401);
    expect(sent).toHaveBeenCalledTimes(1);
    expect(mailsTo('owner@clinic.test')).toHaveLength(1);
  });

  it('limits the failures of one address on one account, also for the right password from there, while another known network signs in', async () => {
    await createUser('pair@clinic.test');
    for (const ip of ['198.51.100.30', '203.0.113.30']) expect((await login('pair@clinic.test', PASSWORD, ip)).status).toBe(200);

    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await login('pair@clinic.test', `guess-${i}`, '198.51.100.30')).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    const refused = await login('pair@clinic.test', PASSWORD, '198.51.100.30');
    expectEnvelope(refused, 429, 'rate_limit_error', 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('pair@clinic.test', PASSWORD, '203.0.113.30')).status).toBe(200);
  });

  it('limits one address spraying many accounts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 51; i++) statuses.push((await login(`spray-${i}@clinic.test`, 'wrong-password', '198.51.100.40')).status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses[50]).toBe(429);
    // Nobody else shares that address's bucket.
    expect((await login('spray-0@clinic.test', 'wrong-password', '198.51.100.41')).status).toBe(401);
  });

  it('slows an unknown network down instead of locking it out: the right password works once the capped delay has passed', async () => {
    await createUser('slow@clinic.test');
    const before = await countRows(app, 'known_sign_in_sources');
    // Failures from a botnet: each attempt waits out the account's current delay, so all are checked.
    for (let i = 0; i < 15; i++) {
      skipAhead(61_000);
      expect((await login('slow@clinic.test', `guess-${i}`, `198.51.100.${100 + i}`)).status).toBe(401);
    }
    const waiting = await login('slow@clinic.test', PASSWORD, '192.0.2.7');
    expectEnvelope(waiting, 429, 'rate_limit_error', 'rate_limited');
    const retryAfter = Number(waiting.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await countRows(app, 'known_sign_in_sources')).toBe(before);

    skipAhead(retryAfter * 1000);
    const signedIn = await login('slow@clinic.test', PASSWORD, '192.0.2.7');
    expect(signedIn.status).toBe(200);
    expect(await countRows(app, 'known_sign_in_sources')).toBe(before + 1);
  });

  it('knows a network only after a complete sign-in: with two-factor authentication, after the code', async () => {
    await createUser('mfa@clinic.test');
    const first = await login('mfa@clinic.test', PASSWORD, '203.0.113.50');
    const enroll = await app.request('POST', '/v1/auth/mfa/enroll', { key: first.body.accessToken, body: {} });
    expect((await app.request('POST', '/v1/auth/mfa/verify', { key: first.body.accessToken, body: { code: await freshTotp(enroll.body.secret) } })).status).toBe(200);

    const before = await countRows(app, 'known_sign_in_sources');
    const challenge = await login('mfa@clinic.test', PASSWORD, '192.0.2.50');
    expect(challenge.body.mfaRequired).toBe(true);
    expect(await countRows(app, 'known_sign_in_sources')).toBe(before);
    const headers = { [FORWARDED_CLIENT_IP]: '192.0.2.50', [FORWARD_PROOF]: consoleForwardProof(SECRET) };
    const done = await app.request('POST', '/v1/auth/mfa/verify', { body: { mfaToken: challenge.body.mfaToken, code: await freshTotp(enroll.body.secret) }, headers });
    expect(done.status).toBe(200);
    expect(await countRows(app, 'known_sign_in_sources')).toBe(before + 1);
  });

  it('keeps magic-link requests apart from password attempts', async () => {
    await createUser('links@clinic.test');
    const headers = { [FORWARDED_CLIENT_IP]: '198.51.100.60', [FORWARD_PROOF]: consoleForwardProof(SECRET) };
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await app.request('POST', '/v1/auth/magic-link', { body: { email: 'links@clinic.test' }, headers })).status);
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    expect((await login('links@clinic.test', PASSWORD, '198.51.100.60')).status).toBe(200);
  });
});
