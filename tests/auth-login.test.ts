import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { findSessionUser, usersByIds } from '@/server/domain/auth/session-users';
import { setClock } from '@/server/lib/clock';
import { type Clinic, createTenantWithKeys, createUserAndLogin, expectEnvelope, readOutbox, startTestApp, type TestApp, VALID_NPI } from './helpers/harness';

let app: TestApp;
let t: Clinic;
let admin: Awaited<ReturnType<typeof createUserAndLogin>>;

beforeAll(async () => {
  app = await startTestApp();
  t = await createTenantWithKeys(app);
  admin = await createUserAndLogin(app, t.tenantId, { email: 'Admin@Clinic.test', role: 'admin' });
});
afterAll(async () => app?.close());
afterEach(() => setClock(null));

const me = (token: string, mode?: string) => app.request('GET', '/v1/auth/me', { key: token, headers: mode ? { 'x-mode': mode } : {} });

describe('POST /auth/login', () => {
  it('signs in with a case-insensitive e-mail and the session acts as the user', async () => {
    const login = await app.request('POST', '/v1/auth/login', { body: { email: 'admin@clinic.test', password: admin.password } });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    const res = await me(login.body.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'user', mode: 'sandbox', user: { email: 'admin@clinic.test', role: 'admin' }, apiKey: null });
    expect(res.body.tenant.id).toBe(t.tenantId);
    expect(res.body.scopes).toContain('users.manage');
    expect(res.body.scopes).not.toContain('intake.review');
    expect((await me(login.body.accessToken, 'live')).body.mode).toBe('live');
    expectEnvelope(await me(login.body.accessToken, 'prod'), 400, 'validation_error', 'invalid_mode');
  });

  it('answers wrong password and unknown e-mail identically', async () => {
    const wrong = await app.request('POST', '/v1/auth/login', { body: { email: 'admin@clinic.test', password: 'nope-nope-nope' } });
    const unknown = await app.request('POST', '/v1/auth/login', { body: { email: 'ghost@clinic.test', password: 'nope-nope-nope' } });
    expectEnvelope(wrong, 401, 'authentication_error', 'invalid_credentials');
    expectEnvelope(unknown, 401, 'authentication_error', 'invalid_credentials');
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
    expect(wrong.text).not.toContain('nope-nope-nope');
  });

  it('validates the body', async () => {
    const res = await app.request('POST', '/v1/auth/login', { body: { email: 'not-an-email', password: 'x' } });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe('email');
  });

  it('limits attempts per account', async () => {
    await createUserAndLogin(app, t.tenantId, { email: 'target@clinic.test', role: 'developer' });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await app.request('POST', '/v1/auth/login', { body: { email: 'target@clinic.test', password: 'guess-' + i } })).status);
    }
    expect(statuses).toContain(429);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
  });

  it('reports an API key through /auth/me', async () => {
    const res = await me(t.liveKey);
    expect(res.body).toMatchObject({ kind: 'key', mode: 'live', user: null });
    expect(res.body.apiKey.mode).toBe('live');
  });
});

describe('session tokens', () => {
  it('refuses tampered and expired tokens, also an expired one it accepted before', async () => {
    const [h, p, s] = admin.token.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = [h, Buffer.from(JSON.stringify({ ...payload, tid: 'ten_other' })).toString('base64url'), s].join('.');
    expectEnvelope(await me(forged), 401, 'authentication_error');
    // A signature character changed mid-string: always other bytes (the last characters of base64url carry
    // bits a decoder may ignore, and 'xx' could be what was there: one chance in 1,024 of testing nothing).
    const at = h.length + p.length + 2 + 10;
    const tampered = admin.token.slice(0, at) + (admin.token[at] === 'A' ? 'B' : 'A') + admin.token.slice(at + 1);
    expectEnvelope(await me(tampered), 401, 'authentication_error');
    // Accepted once, so its signature check is remembered (tokens.ts); the expiry still applies.
    expect((await me(admin.token)).status).toBe(200);
    setClock(() => new Date(Date.now() + 16 * 60_000));
    expectEnvelope(await me(admin.token), 401, 'authentication_error', 'invalid_session');
  });

  it('rotates refresh tokens and revokes the family when an old one is reused', async () => {
    const s = await createUserAndLogin(app, t.tenantId, { email: 'rot@clinic.test', role: 'developer' });
    const first = await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: s.refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(s.refreshToken);
    expect((await me(first.body.accessToken)).status).toBe(200);
    // Past the grace window that concurrent tabs get (sessions.ts), a used token is a stolen one.
    setClock(() => new Date(Date.now() + 11_000));
    expectEnvelope(await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: s.refreshToken } }), 401, 'authentication_error', 'invalid_refresh_token');
    // The reuse burned the whole family, including the newest token.
    expectEnvelope(await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: first.body.refreshToken } }), 401, 'authentication_error');
  });

  it('answers two concurrent refreshes with the same token (two tabs) with the same new pair', async () => {
    const s = await createUserAndLogin(app, t.tenantId, { email: 'tabs@clinic.test', role: 'developer' });
    const refresh = () => app.request('POST', '/v1/auth/refresh', { body: { refreshToken: s.refreshToken } });
    const [a, b] = await Promise.all([refresh(), refresh()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body).toEqual(a.body);
    expect(a.body.refreshToken).not.toBe(s.refreshToken);
    // A third tab a few seconds later, still within the grace window, gets the same pair too.
    setClock(() => new Date(Date.now() + 9_000));
    expect((await refresh()).body).toEqual(a.body);
    setClock(null);
    expect((await me(a.body.accessToken)).status).toBe(200);
    const next = await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: a.body.refreshToken } });
    expect(next.status).toBe(200);
    expect(next.body.refreshToken).not.toBe(a.body.refreshToken);
  });

  it('treats a used refresh token as reuse within the grace window once its successor was used (revoking the family) or its session ended', async () => {
    const chained = await createUserAndLogin(app, t.tenantId, { email: 'chained@clinic.test', role: 'developer' });
    const one = await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: chained.refreshToken } });
    const two = await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: one.body.refreshToken } });
    expect(two.status).toBe(200);
    expectEnvelope(await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: chained.refreshToken } }), 401, 'authentication_error', 'invalid_refresh_token');
    expectEnvelope(await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: two.body.refreshToken } }), 401, 'authentication_error', 'invalid_refresh_token');

    // Nor does the grace outlive a logout of that session.
    const out = await createUserAndLogin(app, t.tenantId, { email: 'graceout@clinic.test', role: 'developer' });
    const rotated = await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: out.refreshToken } });
    expect((await app.request('POST', '/v1/auth/logout', { key: rotated.body.accessToken, body: { refreshToken: rotated.body.refreshToken } })).status).toBe(200);
    expectEnvelope(await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: out.refreshToken } }), 401, 'authentication_error', 'invalid_refresh_token');
  });

  it('logs out one session or every session', async () => {
    const s = await createUserAndLogin(app, t.tenantId, { email: 'out@clinic.test', role: 'developer' });
    expect((await app.request('POST', '/v1/auth/logout', { key: s.token, body: { refreshToken: s.refreshToken } })).status).toBe(200);
    expectEnvelope(await app.request('POST', '/v1/auth/refresh', { body: { refreshToken: s.refreshToken } }), 401, 'authentication_error');
    expect((await app.request('POST', '/v1/auth/logout', { key: s.token })).status).toBe(200);
    expectEnvelope(await me(s.token), 401, 'authentication_error', 'invalid_session');
    expectEnvelope(await app.request('POST', '/v1/auth/logout', { key: t.liveKey }), 403, 'permission_error', 'user_session_required');
  });
});

describe('magic links', () => {
  it('mails a single-use link and answers the same for unknown addresses', async () => {
    const before = readOutbox(app).length;
    const known = await app.request('POST', '/v1/auth/magic-link', { body: { email: 'admin@clinic.test' } });
    const unknown = await app.request('POST', '/v1/auth/magic-link', { body: { email: 'nobody@clinic.test' } });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const mails = readOutbox(app).slice(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toBe('admin@clinic.test');
    const token = new URL(mails[0].link!).searchParams.get('token')!;
    const session = await app.request('POST', '/v1/auth/magic-link/verify', { body: { token } });
    expect(session.status).toBe(200);
    expect((await me(session.body.accessToken)).body.user.email).toBe('admin@clinic.test');
    expectEnvelope(await app.request('POST', '/v1/auth/magic-link/verify', { body: { token } }), 401, 'authentication_error', 'invalid_link_token');
  });
});

describe('session users', () => {
  it('reads the users of concurrent sessions together, each as it stands when its request arrives', async () => {
    const a = await createUserAndLogin(app, t.tenantId, { email: 'batch-a@clinic.test', role: 'developer' });
    const b = await createUserAndLogin(app, t.tenantId, { email: 'batch-b@clinic.test', role: 'provider', npi: VALID_NPI, licensedStates: ['CA'] });
    const gone = await createUserAndLogin(app, t.tenantId, { email: 'batch-gone@clinic.test', role: 'developer' });
    expect((await app.request('POST', '/v1/auth/logout', { key: gone.token })).status).toBe(200);

    const tokens = Array.from({ length: 30 }, (_, i) => [a, b, gone, admin][i % 4]);
    const answers = await Promise.all(tokens.map((s) => me(s.token)));
    answers.forEach((res, i) => {
      if (tokens[i] === gone) expectEnvelope(res, 401, 'authentication_error', 'invalid_session');
      else expect(res.body.user.id).toBe(tokens[i].id);
    });

    const spy = vi.spyOn(usersByIds, 'execute');
    try {
      const db = app.services.database.db;
      const found = await Promise.all([findSessionUser(db, a.id), findSessionUser(db, 'usr_unknown'), findSessionUser(db, b.id), findSessionUser(db, a.id)]);
      expect(found.map((u) => u?.email)).toEqual(['batch-a@clinic.test', undefined, 'batch-b@clinic.test', 'batch-a@clinic.test']);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});
