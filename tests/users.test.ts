import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clinic, countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, readOutbox, startTestApp, type TestApp } from './helpers/harness';

let app: TestApp;
let t: Clinic;
let other: Clinic;
let admin: Awaited<ReturnType<typeof createUserAndLogin>>;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenantWithKeys(app, 'A');
  other = await createTenantWithKeys(app, 'B');
  admin = await createUserAndLogin(app, t.tenantId, { email: 'admin@a.test', role: 'admin' });
});
afterAll(async () => app?.close());

const invite = (token: string, body: unknown) => app.request('POST', '/v1/users', { key: token, body });

describe('POST /users (invitations)', () => {
  it('invites by e-mail; the invitee sets a password through the one-time link', async () => {
    const res = await invite(admin.token, { email: 'dev@a.test', role: 'developer', name: 'Dev' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: 'dev@a.test', role: 'developer', status: 'invited', mfaEnabled: false, provider: null });
    const mail = readOutbox(app).find((m) => m.to === 'dev@a.test')!;
    const token = new URL(mail.link!).searchParams.get('token')!;
    expectEnvelope(await app.request('POST', '/v1/auth/accept-invite', { body: { token, password: 'short' } }), 400, 'validation_error');
    const accepted = await app.request('POST', '/v1/auth/accept-invite', { body: { token, password: 'a long enough password' } });
    expect(accepted.status).toBe(200);
    expectEnvelope(await app.request('POST', '/v1/auth/accept-invite', { body: { token, password: 'another long password' } }), 401, 'authentication_error');
    const login = await app.request('POST', '/v1/auth/login', { body: { email: 'dev@a.test', password: 'a long enough password' } });
    expect(login.status).toBe(200);
    const listed = await app.request('GET', '/v1/users', { key: admin.token });
    expect(listed.body.find((u: { email: string }) => u.email === 'dev@a.test').status).toBe('active');
  });

  it('refuses roles above the granter, non-admin sessions and API keys, writing nothing', async () => {
    const before = await countRows(app, 'users');
    expectEnvelope(await invite(admin.token, { email: 'boss@a.test', role: 'owner' }), 403, 'permission_error', 'role_not_grantable');
    const dev = await createUserAndLogin(app, t.tenantId, { email: 'dev2@a.test', role: 'developer' });
    expectEnvelope(await invite(dev.token, { email: 'x@a.test', role: 'developer' }), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await invite(t.liveKey, { email: 'x@a.test', role: 'developer' }), 403, 'permission_error', 'missing_scope');
    const badNpi = await invite(admin.token, { email: 'doc@a.test', role: 'provider', npi: '123' });
    expectEnvelope(badNpi, 400, 'validation_error');
    expect(badNpi.body.error.param).toBe('npi');
    expectEnvelope(await invite(admin.token, { email: 'admin@a.test', role: 'developer' }), 409, 'conflict', 'email_taken');
    expect(await countRows(app, 'users')).toBe(before + 1);
  });
});

describe('PATCH and DELETE /users/{id}', () => {
  it('changes role and licensed states within the granter’s rank', async () => {
    const u = await createUserAndLogin(app, t.tenantId, { email: 'promote@a.test', role: 'developer' });
    const res = await app.request('PATCH', `/v1/users/${u.id}`, { key: admin.token, body: { role: 'provider', npi: '1234567893', licensedStates: ['TX'] } });
    expect(res.status).toBe(200);
    // A state the clinic adds waits for ops to attest it (issue 20; tests/provider-licenses.test.ts).
    expect(res.body.provider).toMatchObject({ npi: '1234567893', npiVerifiedAt: null, licensedStates: [], pendingLicensedStates: ['TX'] });
    expectEnvelope(await app.request('PATCH', `/v1/users/${u.id}`, { key: admin.token, body: { role: 'owner' } }), 403, 'permission_error');
    expectEnvelope(await app.request('PATCH', `/v1/users/${u.id}`, { key: admin.token, body: { licensedStates: ['XX'] } }), 400, 'validation_error');
    const owner = await createUserAndLogin(app, t.tenantId, { email: 'owner@a.test', role: 'owner' });
    expectEnvelope(await app.request('PATCH', `/v1/users/${owner.id}`, { key: admin.token, body: { role: 'developer' } }), 403, 'permission_error');
  });

  it('deactivates a user whose sessions end at once', async () => {
    const u = await createUserAndLogin(app, t.tenantId, { email: 'leaver@a.test', role: 'developer' });
    expect((await app.request('GET', '/v1/auth/me', { key: u.token })).status).toBe(200);
    const res = await app.request('DELETE', `/v1/users/${u.id}`, { key: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('deactivated');
    expectEnvelope(await app.request('GET', '/v1/auth/me', { key: u.token }), 401, 'authentication_error');
    expectEnvelope(await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: u.refreshToken } }), 401, 'authentication_error');
    expectEnvelope(await app.request('POST', '/v1/auth/login', { body: { email: 'leaver@a.test', password: u.password } }), 401, 'authentication_error');
    expectEnvelope(await app.request('DELETE', `/v1/users/${admin.id}`, { key: admin.token }), 409, 'conflict', 'cannot_deactivate_self');
  });

  it('answers 404 for another tenant’s user', async () => {
    const stranger = await createUserAndLogin(app, other.tenantId, { email: 'stranger@b.test', role: 'developer' });
    expectEnvelope(await app.request('PATCH', `/v1/users/${stranger.id}`, { key: admin.token, body: { name: 'x' } }), 404, 'not_found');
    expectEnvelope(await app.request('DELETE', `/v1/users/${stranger.id}`, { key: admin.token }), 404, 'not_found');
    const list = await app.request('GET', '/v1/users', { key: admin.token });
    expect(list.body.map((u: { id: string }) => u.id)).not.toContain(stranger.id);
  });

  it('keeps ops user creation to ops', async () => {
    const body = { email: 'x@b.test', password: 'correct horse battery staple', role: 'developer' };
    expectEnvelope(await app.request('POST', `/v1/ops/tenants/${t.tenantId}/users`, { key: admin.token, body }), 403, 'permission_error');
    expectEnvelope(await app.request('POST', '/v1/ops/tenants/ten_nope/users', { key: OPS_KEY, body }), 404, 'not_found');
  });
});
