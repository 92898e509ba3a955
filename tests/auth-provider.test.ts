import { freshTotp, wrongTotp } from './helpers/totp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clinic, createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, startTestApp, type TestApp, VALID_NPI } from './helpers/harness';

let app: TestApp;
let t: Clinic;
beforeAll(async () => {
  app = await startTestApp();
  t = await createTenantWithKeys(app);
});
afterAll(async () => app?.close());

const check = (token: string, state = 'CA') => app.request('POST', '/v1/auth/provider-check', { key: token, body: { state } });

async function enrollMfa(token: string) {
  const enroll = await app.request('POST', '/v1/auth/mfa/enroll', { key: token, body: {} });
  expect(enroll.status).toBe(200);
  expect(enroll.body.otpauthUri).toMatch(/^otpauth:\/\/totp\//);
  const wrong = await app.request('POST', '/v1/auth/mfa/verify', { key: token, body: { code: wrongTotp(enroll.body.secret) } });
  expectEnvelope(wrong, 400, 'validation_error', 'invalid_mfa_code');
  const ok = await app.request('POST', '/v1/auth/mfa/verify', { key: token, body: { code: await freshTotp(enroll.body.secret) } });
  expect(ok.body).toEqual({ mfaEnabled: true });
  return enroll.body.secret as string;
}

describe('two-factor authentication', () => {
  it('enrolls with a first code, then sign-in needs a code', async () => {
    const u = await createUserAndLogin(app, t.tenantId, { email: 'mfa@clinic.test', role: 'developer' });
    const secret = await enrollMfa(u.token);
    expectEnvelope(await app.request('POST', '/v1/auth/mfa/enroll', { key: u.token, body: {} }), 409, 'conflict', 'mfa_already_enabled');
    const login = await app.request('POST', '/v1/auth/login', { body: { email: 'mfa@clinic.test', password: u.password } });
    expect(login.body).toMatchObject({ mfaRequired: true });
    expect(login.body.accessToken).toBeUndefined();
    expectEnvelope(await app.request('POST', '/v1/auth/mfa/verify', { body: { mfaToken: login.body.mfaToken, code: wrongTotp(secret) } }), 401, 'authentication_error');
    // An MFA token is not a session.
    expectEnvelope(await app.request('GET', '/v1/auth/me', { key: login.body.mfaToken }), 401, 'authentication_error');
    const done = await app.request('POST', '/v1/auth/mfa/verify', { body: { mfaToken: login.body.mfaToken, code: await freshTotp(secret) } });
    expect(done.status).toBe(200);
    expect((await app.request('GET', '/v1/auth/me', { key: done.body.accessToken })).body.user.mfaEnabled).toBe(true);
  });

  it('takes each code once, also when two sign-ins carry it at the same time', async () => {
    const u = await createUserAndLogin(app, t.tenantId, { email: 'mfa-once@clinic.test', role: 'developer' });
    const secret = await enrollMfa(u.token);
    const signIn = async () => (await app.request('POST', '/v1/auth/login', { body: { email: 'mfa-once@clinic.test', password: u.password } })).body.mfaToken as string;
    const code = await freshTotp(secret);
    const [a, b] = await Promise.all([signIn(), signIn()]);
    const answers = await Promise.all([a, b].map((mfaToken) => app.request('POST', '/v1/auth/mfa/verify', { body: { mfaToken, code } })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
    const refused = answers.find((r) => r.status === 401)!;
    expectEnvelope(refused, 401, 'authentication_error', 'invalid_mfa_code');
    expect(refused.body.error.message).toMatch(/already been used/);
    expect(refused.body.accessToken).toBeUndefined();
    // The same code again, later, is refused as well (the account's fifth code in 5 minutes: the last one
    // its attempt limit allows).
    expectEnvelope(await app.request('POST', '/v1/auth/mfa/verify', { body: { mfaToken: await signIn(), code } }), 401, 'authentication_error', 'invalid_mfa_code');
  });

  it('refuses enrollment through an API key', async () => {
    expectEnvelope(await app.request('POST', '/v1/auth/mfa/enroll', { key: t.liveKey, body: {} }), 403, 'permission_error');
    expectEnvelope(await app.request('POST', '/v1/auth/mfa/verify', { key: t.liveKey, body: { code: '123456' } }), 403, 'permission_error');
  });
});

describe('providerProcedure (POST /auth/provider-check)', () => {
  it('admits only a verified, MFA-enrolled provider and reports state licensure', async () => {
    const p = await createUserAndLogin(app, t.tenantId, { email: 'doc@clinic.test', role: 'provider', npi: VALID_NPI, licensedStates: ['CA', 'NY'], npiVerified: true });
    expectEnvelope(await check(p.token), 403, 'permission_error', 'mfa_required');
    await enrollMfa(p.token);
    const ca = await check(p.token, 'CA');
    expect(ca.status).toBe(200);
    expect(ca.body).toMatchObject({ authorized: true, state: 'CA', npi: VALID_NPI, reason: null });
    const tx = await check(p.token, 'TX');
    expect(tx.body).toMatchObject({ authorized: false, state: 'TX' });
    expect(tx.body.reason).toContain('TX');
    expectEnvelope(await check(p.token, 'ZZ'), 400, 'validation_error');
  });

  it('refuses an unverified NPI until ops attests it', async () => {
    const p = await createUserAndLogin(app, t.tenantId, { email: 'new-doc@clinic.test', role: 'provider', npi: VALID_NPI, licensedStates: ['CA'] });
    await enrollMfa(p.token);
    expectEnvelope(await check(p.token), 403, 'permission_error', 'npi_not_verified');
    const attest = await app.request('POST', `/v1/ops/tenants/${t.tenantId}/users/${p.id}/verify-npi`, { key: OPS_KEY, body: {} });
    expect(attest.status).toBe(200);
    expect(attest.body.provider.npiVerifiedAt).not.toBeNull();
    expect((await check(p.token)).status).toBe(200);
  });

  it('refuses secret keys with every scope, owners, admins and ops', async () => {
    const owner = await createUserAndLogin(app, t.tenantId, { email: 'owner@clinic.test', role: 'owner' });
    const admin = await createUserAndLogin(app, t.tenantId, { email: 'adm@clinic.test', role: 'admin' });
    await enrollMfa(owner.token);
    await enrollMfa(admin.token);
    for (const credential of [t.liveKey, t.sandboxKey, owner.token, admin.token]) {
      expectEnvelope(await check(credential), 403, 'permission_error', 'provider_required');
    }
    expectEnvelope(await check(OPS_KEY), 403, 'permission_error');
  });

  it('rejects an NPI with a bad check digit when ops creates a provider, writing nothing', async () => {
    const res = await app.request('POST', `/v1/ops/tenants/${t.tenantId}/users`, {
      key: OPS_KEY,
      body: { email: 'bad-npi@clinic.test', password: 'correct horse battery staple', role: 'provider', npi: '1234567890' },
    });
    expectEnvelope(res, 400, 'validation_error', 'invalid_npi');
    expect(res.body.error.param).toBe('npi');
    const login = await app.request('POST', '/v1/auth/login', { body: { email: 'bad-npi@clinic.test', password: 'correct horse battery staple' } });
    expect(login.status).toBe(401);
  });
});
