import { randomUUID } from 'node:crypto';
import { createTRPCClient, httpBatchLink, httpLink } from '@trpc/client';
import { encode } from 'next-auth/jwt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { type Clinic, countRows, createTenantWithKeys, createUserAndLogin, startTestApp, type TestApp } from './helpers/harness';
import { trpcFailure } from './helpers/trpc';

/**
 * The console's /api/trpc answers as /v1 does: the same credentials, scopes, tenancy, modes, validation and
 * error fields, through a typed client of the same router.
 */
let app: TestApp;
let a: Clinic;
let b: Clinic;
beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app, 'Clinic A');
  b = await createTenantWithKeys(app, 'Clinic B');
});
afterAll(async () => app?.close());

const client = (headers: Record<string, string> = {}, batch = true) =>
  createTRPCClient<AppRouter>({ links: [(batch ? httpBatchLink : httpLink)({ url: `${app.baseUrl}/api/trpc`, headers })] });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const failure = trpcFailure;

const PATIENT = { firstName: 'Trpcia', lastName: 'Plantedname', dateOfBirth: '1980-02-03', sex: 'female' as const, email: 'trpcia@example.test', address: { line1: '1 Main St', city: 'Austin', state: 'TX', postalCode: '73301' } };

describe('/api/trpc', () => {
  it('answers batched, typed calls with an API key, as /v1 does', async () => {
    const trpc = client(bearer(a.sandboxKey));
    const [keys, usage] = await Promise.all([trpc.developer.listApiKeys.query({}), trpc.developer.getUsage.query({})]);
    const rest = await app.request('GET', '/v1/developer/keys', { key: a.sandboxKey });
    expect(keys.map((k) => k.id)).toEqual(rest.body.map((k: { id: string }) => k.id));
    expect(usage.object).toBe('usage');
  });

  it('refuses a missing or unknown credential with 401 and the envelope fields, request id included', async () => {
    const res = await fetch(`${app.baseUrl}/api/trpc/developer.listApiKeys`);
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.error.data).toMatchObject({ type: 'authentication_error', code: 'missing_api_key', httpStatus: 401, request_id: res.headers.get('x-request-id') });
    const { data } = await failure(client(bearer('nk_sandbox_not_a_real_key_at_all_000000')).developer.listApiKeys.query({}));
    expect(data).toMatchObject({ type: 'authentication_error', httpStatus: 401 });
    expect(data.request_id).toMatch(/^req_/);
  });

  it('holds a restricted key to its scopes', async () => {
    const restricted = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'webhooks only', keyType: 'restricted', scopes: ['webhooks.manage'] } });
    expect(restricted.status).toBe(201);
    const trpc = client(bearer(restricted.body.key));
    expect(await trpc.webhooks.listWebhookEndpoints.query({})).toEqual([]);
    const { data } = await failure(trpc.patients.listPatients.query({}));
    expect(data).toMatchObject({ type: 'permission_error', code: 'missing_scope', httpStatus: 403 });
  });

  it('keeps tenants and modes apart', async () => {
    const created = await client(bearer(a.sandboxKey)).patients.createPatient.mutate(PATIENT);
    const other = await failure(client(bearer(b.sandboxKey)).patients.getPatient.query({ id: created.id }));
    expect(other.data).toMatchObject({ type: 'not_found', httpStatus: 404 });
    const live = await failure(client(bearer(a.liveKey)).patients.getPatient.query({ id: created.id }));
    expect(live.data).toMatchObject({ type: 'not_found', httpStatus: 404 });
    const rest = await app.request('GET', `/v1/patients/${created.id}`, { key: b.sandboxKey });
    expect(rest.body.error.code).toBe(other.data.code);
  });

  it("answers bad input with the API's message and the field, and writes nothing", async () => {
    const before = await countRows(app, 'patients');
    const { message, data } = await failure(client(bearer(a.sandboxKey)).patients.createPatient.mutate({ ...PATIENT, firstName: 'Bad\u0000Name' }));
    expect(data).toMatchObject({ type: 'validation_error', param: 'firstName', httpStatus: 400 });
    expect(message).toBe('First name must not contain the NUL character (\\u0000).');
    expect(message).not.toContain('Plantedname');
    expect(await countRows(app, 'patients')).toBe(before);
  });

  it('refuses a lone UTF-16 surrogate as /v1 does (issue 49), in a mutation and in a query, and keeps a valid pair', async () => {
    const before = await countRows(app, 'patients');
    for (const lastName of ['Bad\ud800Name', '\udc00']) {
      const { message, data } = await failure(client(bearer(a.sandboxKey)).patients.createPatient.mutate({ ...PATIENT, lastName }));
      expect(data).toMatchObject({ type: 'validation_error', param: 'lastName', httpStatus: 400 });
      expect(message).toBe('Last name must not contain a lone UTF-16 surrogate (\\ud800–\\udfff).');
    }
    expect(await countRows(app, 'patients')).toBe(before);
    // A query's input travels in the URL as JSON, where the surrogate is an escape: refused the same way.
    const listed = await failure(client(bearer(a.sandboxKey), false).patients.listPatients.query({ starting_after: 'pat_\ud800' }));
    expect(listed.data).toMatchObject({ type: 'validation_error', param: 'starting_after', httpStatus: 400 });
    const emoji = await client(bearer(a.sandboxKey)).patients.createPatient.mutate({ ...PATIENT, lastName: 'Smile 😀' });
    expect(emoji.lastName).toBe('Smile 😀');
  });

  it('honours Idempotency-Key per call, fingerprinted by procedure and input', async () => {
    const key = randomUUID();
    const trpc = client({ ...bearer(a.sandboxKey), 'idempotency-key': key }, false);
    const body = { url: 'https://hooks.example.test/a', events: ['order.submitted'] };
    const first = await trpc.webhooks.createWebhookEndpoint.mutate(body);
    const again = await trpc.webhooks.createWebhookEndpoint.mutate(body);
    expect(again.id).toBe(first.id);
    const { data } = await failure(trpc.webhooks.createWebhookEndpoint.mutate({ ...body, url: 'https://hooks.example.test/b' }));
    expect(data.httpStatus).toBeGreaterThanOrEqual(400);
    expect((await client(bearer(a.sandboxKey)).webhooks.listWebhookEndpoints.query({})).filter((e) => e.id === first.id)).toHaveLength(1);
  });

  it('serves pharmacy callbacks only under /v1, where the signed raw body is what arrives', async () => {
    const res = await fetch(`${app.baseUrl}/api/trpc/pharmacyCallbacks.receiveCallback`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
  });

  it("takes the console's session cookie only with the console's header (no cross-site request can send it), and its mode cookie", async () => {
    const admin = await createUserAndLogin(app, a.tenantId, { email: 'trpc-admin@a.test', role: 'admin' });
    const value = await encode({ token: { sub: 'x', accessToken: admin.token }, secret: app.services.auth.consoleSecret });
    const cookie = `next-auth.session-token=${value}; fr_mode=live`;
    const cross = await failure(client({ cookie }).auth.me.query({}));
    expect(cross.data).toMatchObject({ code: 'missing_api_key', httpStatus: 401 });
    const me = await client({ cookie, 'x-trpc-source': 'console' }).auth.me.query({});
    expect(me).toMatchObject({ mode: 'live', user: { email: 'trpc-admin@a.test' } });
    const sandbox = await client({ cookie, 'x-trpc-source': 'console', 'x-mode': 'sandbox' }).auth.me.query({});
    expect(sandbox.mode).toBe('sandbox');
    const forged = await failure(client({ cookie: 'next-auth.session-token=forged', 'x-trpc-source': 'console' }).auth.me.query({}));
    expect(forged.data).toMatchObject({ code: 'missing_api_key', httpStatus: 401 });
  });
});

describe('auth.grants', () => {
  it('offers what the create and update procedures would accept, and only to a person', async () => {
    const admin = await createUserAndLogin(app, a.tenantId, { email: 'grants-admin@a.test', role: 'admin' });
    const dev = await createUserAndLogin(app, a.tenantId, { email: 'grants-dev@a.test', role: 'developer' });
    const adminGrants = await client(bearer(admin.token)).auth.grants.query();
    expect(adminGrants.roles).toEqual(['admin', 'developer', 'provider']);
    expect(adminGrants.secretKeys).toBe(true);
    const devGrants = await client(bearer(dev.token)).auth.grants.query();
    expect(devGrants.roles).toEqual(['developer', 'provider']);
    expect(devGrants.secretKeys).toBe(false);
    expect(devGrants.keyScopes).toContain('webhooks.manage');
    expect(devGrants.keyScopes).not.toContain('patients.read');
    const { data } = await failure(client(bearer(a.sandboxKey)).auth.grants.query());
    expect(data).toMatchObject({ code: 'user_session_required', httpStatus: 403 });
  });
});
