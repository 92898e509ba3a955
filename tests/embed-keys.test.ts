import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Clinic, countRows, createTenantWithKeys, expectEnvelope, startTestApp, startWithTwoClinics, type TestApp } from './helpers/harness';

const PUBLIC_URL = 'https://rail.example.net';
let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics({ PUBLIC_URL })));
afterAll(async () => app?.close());

const create = (key: string, body: unknown) => app.request('POST', '/v1/embed-keys', { key, body });
const get = (key: string, id: string) => app.request('GET', `/v1/embed-keys/${id}`, { key });
const patch = (key: string, id: string, body: unknown) => app.request('PATCH', `/v1/embed-keys/${id}`, { key, body });
const revoke = (key: string, id: string) => app.request('DELETE', `/v1/embed-keys/${id}`, { key });
const list = (key: string, query = '') => app.request('GET', `/v1/embed-keys${query}`, { key });
const publicGet = (embedKey: string, headers: Record<string, string> = {}, on: TestApp = app) => on.request('GET', `/v1/public/embed/${embedKey}`, { headers });

const CLINIC = 'https://clinic.example.com';

describe('POST /v1/embed-keys', () => {
  it('creates a key: emb_ + 24 base62, its mode, origins, flow and questionnaires', async () => {
    const res = await create(a.liveKey, { name: 'Website', allowedOrigins: [CLINIC, 'https://*.example.org', CLINIC], questionnaireKeys: ['weight'] });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^emb_[0-9A-Za-z]{24}$/),
      name: 'Website',
      livemode: true,
      allowedOrigins: [CLINIC, 'https://*.example.org'],
      flowId: null,
      questionnaireKeys: ['weight'],
      revokedAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const sandbox = await create(a.sandboxKey, { allowedOrigins: [] });
    expect(sandbox.status).toBe(201);
    expect(sandbox.body).toMatchObject({ livemode: false, name: null, allowedOrigins: [], questionnaireKeys: [] });
  });

  it.each([
    ['bare star', { allowedOrigins: ['*'] }, 'allowedOrigins.0'],
    ['http wildcard', { allowedOrigins: [CLINIC, 'http://*'] }, 'allowedOrigins.1'],
    ['public-suffix wildcard', { allowedOrigins: ['https://*.com'] }, 'allowedOrigins.0'],
    ['a path', { allowedOrigins: ['https://clinic.example.com/intake'] }, 'allowedOrigins.0'],
    ['a trailing slash', { allowedOrigins: ['https://clinic.example.com/'] }, 'allowedOrigins.0'],
    ['http outside localhost', { allowedOrigins: ['http://clinic.example.com'] }, 'allowedOrigins.0'],
    ['uppercase host', { allowedOrigins: ['https://Clinic.example.com'] }, 'allowedOrigins.0'],
    ['too many origins', { allowedOrigins: Array.from({ length: 51 }, (_, i) => `https://s${i}.example.com`) }, 'allowedOrigins'],
    ['missing origins', { name: 'x' }, 'allowedOrigins'],
    ['origins not an array', { allowedOrigins: CLINIC }, 'allowedOrigins'],
    ['an unknown field', { allowedOrigins: [CLINIC], secret: 'x' }, 'secret'],
    ['a non-string questionnaire key', { allowedOrigins: [CLINIC], questionnaireKeys: [1] }, 'questionnaireKeys.0'],
    ['an overlong name', { allowedOrigins: [CLINIC], name: 'n'.repeat(201) }, 'name'],
  ])('refuses %s with 400 naming the field, writing nothing', async (_name, body, param) => {
    const before = await countRows(app, 'embed_keys');
    const res = await create(a.liveKey, body);
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toBe(param);
    expect(await countRows(app, 'embed_keys')).toBe(before);
  });

  it('needs flows.manage: a restricted key without it gets 403 and writes nothing', async () => {
    const restricted = await app.request('POST', '/v1/developer/keys', { key: a.liveKey, body: { name: 'ro', keyType: 'restricted', mode: 'live', scopes: ['orders.read'] } });
    expect(restricted.status).toBe(201);
    const mine = await create(a.liveKey, { allowedOrigins: [CLINIC] });
    const before = await countRows(app, 'embed_keys');
    expectEnvelope(await create(restricted.body.key, { allowedOrigins: [CLINIC] }), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await list(restricted.body.key), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await get(restricted.body.key, mine.body.id), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await patch(restricted.body.key, mine.body.id, { name: 'x' }), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await revoke(restricted.body.key, mine.body.id), 403, 'permission_error', 'missing_scope');
    expect(await countRows(app, 'embed_keys')).toBe(before);
    expect((await get(a.liveKey, mine.body.id)).body).toEqual(mine.body);

    const allowed = await app.request('POST', '/v1/developer/keys', { key: a.liveKey, body: { name: 'flows', keyType: 'restricted', mode: 'live', scopes: ['flows.manage'] } });
    expect((await create(allowed.body.key, { allowedOrigins: [CLINIC] })).status).toBe(201);
  });
});

describe('GET, PATCH, DELETE /v1/embed-keys', () => {
  it('lists newest first with cursor paging, revoked keys included', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await create(b.sandboxKey, { name: `k${i}`, allowedOrigins: [] })).body);
    await revoke(b.sandboxKey, made[0].id);
    const all = await list(b.sandboxKey);
    expect(all.status).toBe(200);
    expect(all.body.map((k: { name: string }) => k.name)).toEqual(['k2', 'k1', 'k0']);
    expect(all.body[2].revokedAt).toEqual(expect.any(String));
    const first = await list(b.sandboxKey, '?limit=2');
    expect(first.body.map((k: { name: string }) => k.name)).toEqual(['k2', 'k1']);
    const next = await list(b.sandboxKey, `?limit=2&starting_after=${first.body[1].id}`);
    expect(next.body.map((k: { name: string }) => k.name)).toEqual(['k0']);
    // The other mode and the other tenant see none of them.
    expect((await list(b.liveKey)).body).toEqual([]);
    expect((await list(a.sandboxKey)).body.map((k: { id: string }) => k.id)).not.toContain(made[1].id);
    expectEnvelope(await list(b.sandboxKey, '?limit=0'), 400, 'validation_error');
    const badCursor = await list(b.sandboxKey, `?starting_after=${(await create(b.liveKey, { allowedOrigins: [] })).body.id}`);
    expectEnvelope(badCursor, 400, 'validation_error');
    expect(badCursor.body.error.param).toBe('starting_after');
  });

  it('gets and changes a key; other tenants and the other mode get 404 and change nothing', async () => {
    const key = (await create(a.liveKey, { name: 'Site', allowedOrigins: [CLINIC] })).body;
    expect((await get(a.liveKey, key.id)).body).toEqual(key);
    for (const other of [a.sandboxKey, b.liveKey, b.sandboxKey]) {
      expectEnvelope(await get(other, key.id), 404, 'not_found');
      expectEnvelope(await patch(other, key.id, { name: 'Stolen' }), 404, 'not_found');
      expectEnvelope(await revoke(other, key.id), 404, 'not_found');
    }
    expect((await get(a.liveKey, key.id)).body).toEqual(key);

    const changed = await patch(a.liveKey, key.id, { name: 'Main site', allowedOrigins: ['https://*.example.com'], questionnaireKeys: ['hair'] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: key.id, name: 'Main site', allowedOrigins: ['https://*.example.com'], questionnaireKeys: ['hair'], revokedAt: null });

    for (const [body, param] of [
      [{ allowedOrigins: ['https://ok.example.com', '*'] }, 'allowedOrigins.1'],
      [{ flowId: 'flw_x' }, 'flowId'],
      [{ livemode: false }, 'livemode'],
      [{ name: 7 }, 'name'],
    ] as const) {
      const res = await patch(a.liveKey, key.id, body);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe(param);
    }
    expect((await get(a.liveKey, key.id)).body).toEqual(changed.body);
    expectEnvelope(await get(a.liveKey, 'emb_000000000000000000000000'), 404, 'not_found');
  });

  it('revokes for good: a repeat is a no-op, a change is 409, the public path is 404', async () => {
    const key = (await create(a.liveKey, { allowedOrigins: [CLINIC] })).body;
    expect((await publicGet(key.id, { origin: CLINIC })).status).toBe(200);
    const revoked = await revoke(a.liveKey, key.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    const again = await revoke(a.liveKey, key.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(revoked.body);
    expectEnvelope(await patch(a.liveKey, key.id, { name: 'Back' }), 409, 'conflict', 'embed_key_revoked');
    expect((await get(a.liveKey, key.id)).body).toEqual(revoked.body);
    expectEnvelope(await publicGet(key.id, { origin: CLINIC }), 404, 'not_found');
  });
});

describe('GET /v1/public/embed/{embedKey} (embedProcedure)', () => {
  let live: { id: string };
  let sandbox: { id: string };
  beforeAll(async () => {
    live = (await create(a.liveKey, { allowedOrigins: [CLINIC, 'https://*.example.org', 'http://localhost:5173'], questionnaireKeys: ['weight'] })).body;
    sandbox = (await create(a.sandboxKey, { allowedOrigins: [] })).body;
  });

  it('answers the patient-safe facts to an allowed origin, with CORS for that origin only', async () => {
    const res = await publicGet(live.id, { origin: CLINIC });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ livemode: true, flowId: null, questionnaireKeys: ['weight'] });
    expect(res.headers.get('access-control-allow-origin')).toBe(CLINIC);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toContain('Origin');
    expect((await publicGet(live.id, { origin: 'http://localhost:5173' })).status).toBe(200);
  });

  it('matches wildcard subdomains at any depth, but not the bare domain', async () => {
    expect((await publicGet(live.id, { origin: 'https://intake.example.org' })).status).toBe(200);
    expect((await publicGet(live.id, { origin: 'https://a.b.example.org' })).status).toBe(200);
    expectEnvelope(await publicGet(live.id, { origin: 'https://example.org' }), 403, 'permission_error', 'origin_not_allowed');
  });

  it('refuses other origins, and no origin at all, with 403 origin_not_allowed', async () => {
    const wrong = await publicGet(live.id, { origin: 'https://evil.test' });
    expectEnvelope(wrong, 403, 'permission_error', 'origin_not_allowed');
    // The browser may still read the refusal, so the widget can explain it.
    expect(wrong.headers.get('access-control-allow-origin')).toBe('https://evil.test');
    expectEnvelope(await publicGet(live.id), 403, 'permission_error', 'origin_not_allowed');
    expectEnvelope(await publicGet(live.id, { origin: 'http://clinic.example.com' }), 403, 'permission_error', 'origin_not_allowed');
  });

  it("falls back to the Referer's origin when Origin is missing", async () => {
    expect((await publicGet(live.id, { referer: `${CLINIC}/start?x=1` })).status).toBe(200);
    expectEnvelope(await publicGet(live.id, { referer: `https://evil.test/${CLINIC}` }), 403, 'permission_error', 'origin_not_allowed');
  });

  it("always allows the service's own origin (PUBLIC_URL, the hosted pages)", async () => {
    expect((await publicGet(live.id, { origin: PUBLIC_URL })).status).toBe(200);
    expect((await publicGet(live.id, { referer: `${PUBLIC_URL}/i/token` })).status).toBe(200);
  });

  it('exempts sandbox keys from the origin check', async () => {
    const res = await publicGet(sandbox.id, { origin: 'https://anything.test' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ livemode: false, flowId: null, questionnaireKeys: [] });
    expect((await publicGet(sandbox.id)).status).toBe(200);
  });

  it('answers 404 for unknown and malformed keys', async () => {
    expectEnvelope(await publicGet('emb_000000000000000000000000', { origin: CLINIC }), 404, 'not_found');
    expectEnvelope(await publicGet('emb_short', { origin: CLINIC }), 404, 'not_found');
    expectEnvelope(await publicGet('sk_live_whatever', { origin: CLINIC }), 404, 'not_found');
  });

  it('answers the CORS preflight of public paths, and sends no CORS headers elsewhere', async () => {
    const pre = await app.request('OPTIONS', `/v1/public/embed/${live.id}`, {
      headers: { origin: CLINIC, 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type, idempotency-key' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(CLINIC);
    expect(pre.headers.get('access-control-allow-methods')).toContain('GET');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    expect(pre.headers.get('access-control-allow-credentials')).toBeNull();
    const privatePath = await app.request('GET', '/v1/embed-keys', { key: a.liveKey, headers: { origin: CLINIC } });
    expect(privatePath.headers.get('access-control-allow-origin')).toBeNull();
    expect((await app.request('OPTIONS', '/v1/embed-keys', { headers: { origin: CLINIC } })).status).toBe(405);
  });
});

describe('public rate limit per key and client IP', () => {
  let limited: TestApp;
  afterAll(async () => limited?.close());

  it('answers 429 with Retry-After once a key is over EMBED_RATE_LIMIT, and counts each key apart', async () => {
    limited = await startTestApp({ EMBED_RATE_LIMIT: '2' });
    const tenant = await createTenantWithKeys(limited, 'Limited');
    const mk = async () => (await limited.request('POST', '/v1/embed-keys', { key: tenant.sandboxKey, body: { allowedOrigins: [] } })).body.id as string;
    const [one, two] = [await mk(), await mk()];
    // Sent at once so that they fall in one second: two a second plus a burst of two more, then refusals.
    const statuses = (await Promise.all(Array.from({ length: 8 }, () => publicGet(one, {}, limited)))).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429, 429, 429]);
    const refused = await publicGet(one, {}, limited);
    expectEnvelope(refused, 429, 'rate_limit_error', 'rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await publicGet(two, {}, limited)).status).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('documents the public path as credential-less and the embed key paths under bearer auth', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    expect(doc.paths['/public/embed/{embedKey}'].get.security).toEqual([]);
    expect(doc.paths['/embed-keys'].post).toBeDefined();
    expect(doc.paths['/embed-keys/{id}'].delete).toBeDefined();
    expect(doc.paths['/ops/tenants/{tenantId}'].patch).toBeDefined();
  });
});
