import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld } from './helpers/orders-world';

/*
 * Issue 20, item 2 (licences): a clinic admin may take a licensed state away at once but may only ask for
 * one to be added; ops attests it (as it does an NPI) before it authorizes any approval. Every change is
 * recorded with who and when, and shown by GET /users/{id}/license-changes.
 */

type World = Awaited<ReturnType<typeof ordersWorld>>;

let app: TestApp;
let w: World;
let admin: Awaited<ReturnType<typeof createUserAndLogin>>;
beforeAll(async () => {
  app = await startTestApp();
  w = await ordersWorld(app, 'Licences');
  admin = await createUserAndLogin(app, w.tenantId, { email: 'lic-admin@clinic.test', role: 'admin' });
});
afterAll(async () => app?.close());

const setStates = (userId: string, licensedStates: string[], token = admin.token) => app.request('PATCH', `/v1/users/${userId}`, { key: token, body: { licensedStates } });
const attest = (userId: string, states: unknown, tenantId = w.tenantId) => app.request('POST', `/v1/ops/tenants/${tenantId}/users/${userId}/verify-licenses`, { key: OPS_KEY, body: { states } });
const history = (userId: string, token = admin.token) => app.request('GET', `/v1/users/${userId}/license-changes`, { key: token });

/** A TX patient's order waiting for approval: the world's provider is licensed in CA only. */
const txOrder = async () => (await w.create({ patientId: w.patients.tx })).body.id as string;

describe('adding a licensed state', () => {
  it('an admin’s new state waits for ops: the provider cannot approve there until ops attests it', async () => {
    const orderId = await txOrder();
    const added = await setStates(w.provider.id, ['CA', 'TX']);
    expect(added.status, added.text).toBe(200);
    expect(added.body.provider).toMatchObject({ licensedStates: ['CA'], pendingLicensedStates: ['TX'] });
    expectEnvelope(await w.approve(orderId), 403, 'permission_error', 'provider_not_licensed');
    const check = await app.request('POST', '/v1/auth/provider-check', { key: w.provider.token, body: { state: 'TX' } });
    expect(check.body.authorized).toBe(false);

    const attested = await attest(w.provider.id, ['TX']);
    expect(attested.status, attested.text).toBe(200);
    expect(attested.body.provider).toMatchObject({ licensedStates: ['CA', 'TX'], pendingLicensedStates: [] });
    const approved = await w.approve(orderId);
    expect(approved.status, approved.text).toBe(201);
  });

  it('ops attests only states a clinic asked for; an invitation’s states wait for ops too', async () => {
    const before = await countRows(app, 'provider_license_changes');
    const notAsked = await attest(w.provider.id, ['WA']);
    expectEnvelope(notAsked, 422, 'validation_error', 'license_not_requested');
    expect(notAsked.body.error.param).toBe('states');
    const badState = await attest(w.provider.id, ['XX']);
    expectEnvelope(badState, 400, 'validation_error');
    expect(badState.body.error.param).toMatch(/^states/);
    expectEnvelope(await attest(w.provider.id, []), 400, 'validation_error');
    expectEnvelope(await attest(admin.id, ['CA']), 422, 'validation_error', 'not_a_provider');
    const stranger = await createTenantWithKeys(app, 'Stranger');
    expectEnvelope(await attest(w.provider.id, ['CA'], stranger.tenantId), 404, 'not_found');
    // Clinic credentials cannot attest: it is an ops endpoint.
    expectEnvelope(await app.request('POST', `/v1/ops/tenants/${w.tenantId}/users/${w.provider.id}/verify-licenses`, { key: admin.token, body: { states: ['WA'] } }), 403, 'permission_error');
    expect(await countRows(app, 'provider_license_changes')).toBe(before);

    const invited = await app.request('POST', '/v1/users', { key: admin.token, body: { email: 'new-doc@clinic.test', role: 'provider', npi: '1234567893', licensedStates: ['NY'] } });
    expect(invited.status, invited.text).toBe(201);
    expect(invited.body.provider).toMatchObject({ licensedStates: [], pendingLicensedStates: ['NY'] });
  });
});

describe('taking a licensed state away and the history', () => {
  it('removal applies at once; every change is recorded with who and when, newest first', async () => {
    const doc = await createUserAndLogin(app, w.tenantId, { email: 'hist-doc@clinic.test', role: 'provider', npi: '1234567893', npiVerified: true, licensedStates: ['CA', 'NY'] });
    // Each change is stamped with the time of the request that made it: between its sending and its answer.
    const during = async <T>(send: () => Promise<T>) => {
      const from = Date.now();
      const res = await send();
      return { res, from, to: Date.now() };
    };
    const first = await during(() => setStates(doc.id, ['CA', 'FL']));
    expect(first.res.body.provider).toMatchObject({ licensedStates: ['CA'], pendingLicensedStates: ['FL'] });
    const second = await during(() => setStates(doc.id, ['CA']));
    expect(second.res.body.provider).toMatchObject({ licensedStates: ['CA'], pendingLicensedStates: [] });
    const res = await history(doc.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.object).toBe('list');
    const rows = res.body.data as { id: string; state: string; change: string; actorKind: string; actorId: string | null; at: string }[];
    expect(rows.map((r) => [r.change, r.state, r.actorKind, r.actorId])).toEqual([
      ['withdrawn', 'FL', 'user', admin.id],
      ['requested', 'FL', 'user', admin.id],
      ['removed', 'NY', 'user', admin.id],
      ['attested', 'NY', 'ops', expect.stringMatching(/^key_/)],
      ['attested', 'CA', 'ops', expect.stringMatching(/^key_/)],
    ]);
    const at = rows.map((r) => Date.parse(r.at));
    expect(at[0]).toBeGreaterThanOrEqual(second.from);
    expect(at[0]).toBeLessThanOrEqual(second.to);
    // The first request's two changes (FL asked for, NY taken away) share its moment.
    expect(at[1]).toBe(at[2]);
    expect(at[1]).toBeGreaterThanOrEqual(first.from);
    expect(at[1]).toBeLessThanOrEqual(first.to);
    // The attestations came with the user's creation, before either request.
    for (const t of at.slice(3)) expect(t).toBeLessThanOrEqual(first.from);
  });

  it('the history is for owner and admin sessions of the tenant only', async () => {
    const dev = await createUserAndLogin(app, w.tenantId, { email: 'lic-dev@clinic.test', role: 'developer' });
    expectEnvelope(await history(w.provider.id, dev.token), 403, 'permission_error');
    expectEnvelope(await history(w.provider.id, w.key), 403, 'permission_error');
    const stranger = await createTenantWithKeys(app, 'Other clinic');
    const otherAdmin = await createUserAndLogin(app, stranger.tenantId, { email: 'lic-other@clinic.test', role: 'admin' });
    expectEnvelope(await history(w.provider.id, otherAdmin.token), 404, 'not_found');
    expectEnvelope(await setStates(w.provider.id, ['CA'], otherAdmin.token), 404, 'not_found');
  });
});
