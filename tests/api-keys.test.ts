import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setClock } from '@/server/lib/clock';
import { type Clinic, countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, startWithTwoClinics, type TestApp } from './helpers/harness';

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());
afterEach(() => setClock(null));

const create = (key: string, body: unknown, idempotencyKey?: string) => app.request('POST', '/v1/developer/keys', { key, body, idempotencyKey });
const list = (key: string) => app.request('GET', '/v1/developer/keys', { key });

describe('POST /developer/keys', () => {
  it('creates a sandbox secret key by default and returns the plaintext once', async () => {
    const res = await create(a.sandboxKey, { name: 'Server' });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^nk_sandbox_[0-9A-Za-z]{32}$/);
    const k = res.body.apiKey;
    expect(k).toMatchObject({ name: 'Server', mode: 'sandbox', keyType: 'secret', lastUsedAt: null, expiresAt: null, revokedAt: null });
    expect(k.id).toMatch(/^key_/);
    expect(k.prefix).toBe(res.body.key.slice(0, 12));
    expect(k.last4).toBe(res.body.key.slice(-4));
    expect(k.scopes).toContain('orders.write');
    expect(k.scopes).not.toContain('ops.*');
    expect(new Date(k.createdAt).toISOString()).toBe(k.createdAt);
    const listed = await list(a.sandboxKey);
    expect(listed.text).not.toContain(res.body.key);
    expect((await list(res.body.key)).status).toBe(200);
  });

  it('creates restricted keys with rk_ and their scopes only', async () => {
    const res = await create(a.liveKey, { name: 'Reader', mode: 'live', keyType: 'restricted', scopes: ['orders.read', 'keys.manage'] });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^rk_live_[0-9A-Za-z]{32}$/);
    expect(res.body.apiKey.scopes).toEqual(['orders.read', 'keys.manage']);
    // The restricted key can delegate only what it holds.
    const sub = await create(res.body.key, { name: 'Sub', mode: 'live', keyType: 'restricted', scopes: ['orders.write'] });
    expectEnvelope(sub, 403, 'permission_error', 'scope_not_grantable');
  });

  it('rejects a restricted key without scopes (400), an unknown scope (400) and ops scopes (403), writing nothing', async () => {
    const before = await countRows(app, 'api_keys');
    const none = await create(a.sandboxKey, { name: 'R', keyType: 'restricted' });
    expectEnvelope(none, 400, 'validation_error');
    expect(none.body.error.param).toBe('scopes');
    expectEnvelope(await create(a.sandboxKey, { name: 'R', keyType: 'restricted', scopes: ['orders.fly'] }), 400, 'validation_error', 'unknown_scope');
    expectEnvelope(await create(a.sandboxKey, { name: 'R', keyType: 'restricted', scopes: ['ops.*'] }), 403, 'permission_error');
    expectEnvelope(await create(a.sandboxKey, { name: 'R', keyType: 'restricted', scopes: ['ops.tenants'] }), 403, 'permission_error');
    expect(await countRows(app, 'api_keys')).toBe(before);
  });

  it('ignores scopes for secret keys', async () => {
    const res = await create(a.sandboxKey, { name: 'S', scopes: ['orders.read'] });
    expect(res.status).toBe(201);
    expect(res.body.apiKey.scopes.length).toBeGreaterThan(5);
  });

  it('enforces the name length 1..120', async () => {
    const before = await countRows(app, 'api_keys');
    expectEnvelope(await create(a.sandboxKey, { name: '' }), 400, 'validation_error');
    expectEnvelope(await create(a.sandboxKey, { name: 'x'.repeat(121) }), 400, 'validation_error');
    expect(await countRows(app, 'api_keys')).toBe(before);
    expect((await create(a.sandboxKey, { name: 'x'.repeat(120) })).status).toBe(201);
  });

  it('refuses live keys from a sandbox credential', async () => {
    expectEnvelope(await create(a.sandboxKey, { name: 'L', mode: 'live' }), 403, 'permission_error', 'live_key_from_sandbox');
    expect((await create(a.liveKey, { name: 'L', mode: 'live' })).body.key).toMatch(/^nk_live_/);
  });

  it('expires keys after expiresInDays', async () => {
    const res = await create(a.sandboxKey, { name: 'Short', expiresInDays: 1 });
    const expiresAt = new Date(res.body.apiKey.expiresAt).getTime();
    expect(expiresAt - new Date(res.body.apiKey.createdAt).getTime()).toBe(86_400_000);
    expect((await list(res.body.key)).status).toBe(200);
    setClock(() => new Date(expiresAt + 1000));
    expectEnvelope(await list(res.body.key), 401, 'authentication_error', 'api_key_expired');
  });

  it('records lastUsedAt when a key is used', async () => {
    const res = await create(a.sandboxKey, { name: 'Used' });
    await list(res.body.key);
    const mine = (await list(a.sandboxKey)).body.find((k: { id: string }) => k.id === res.body.apiKey.id);
    expect(mine.lastUsedAt).not.toBeNull();
  });
});

// Issue 20: a restricted key holding only keys.manage, or a developer's session, could mint a secret key
// (every tenant scope, patients included) that outlived the creator's revocation or deactivation.
describe('who may create a secret key', () => {
  // The prefix carries only one random character after `nk_sandbox_`, so the last four tell keys apart too.
  const idOf = async (key: string, plaintext: string) =>
    ((await list(key)).body as { id: string; prefix: string; last4: string }[]).find((k) => k.prefix === plaintext.slice(0, 12) && k.last4 === plaintext.slice(-4))!.id;

  it('refuses a restricted key holding keys.manage (403 scope_not_grantable), writing nothing', async () => {
    const manager = await create(a.liveKey, { name: 'Key manager', mode: 'live', keyType: 'restricted', scopes: ['keys.manage'] });
    const before = await countRows(app, 'api_keys');
    for (const mode of ['live', 'sandbox']) {
      const res = await create(manager.body.key, { name: 'Escalation', mode });
      expectEnvelope(res, 403, 'permission_error', 'scope_not_grantable');
      expect(res.text).not.toMatch(/nk_(live|sandbox)_/);
    }
    expect(await countRows(app, 'api_keys')).toBe(before);
    // It can still delegate what it holds.
    const sub = await create(manager.body.key, { name: 'Sub-manager', mode: 'live', keyType: 'restricted', scopes: ['keys.manage'] });
    expect(sub.status).toBe(201);
    expect(sub.body.apiKey.createdBy).toEqual({ type: 'api_key', id: manager.body.apiKey.id });
  });

  it('refuses a developer’s session (it does not hold every scope a key can exercise), writing nothing; an owner’s may', async () => {
    const dev = await createUserAndLogin(app, a.tenantId, { email: 'dev@keys-a.test', role: 'developer' });
    const owner = await createUserAndLogin(app, a.tenantId, { email: 'owner@keys-a.test', role: 'owner' });
    const before = await countRows(app, 'api_keys');
    expectEnvelope(await create(dev.token, { name: 'Escalation' }), 403, 'permission_error', 'scope_not_grantable');
    expectEnvelope(await create(dev.token, { name: 'Escalation', keyType: 'secret', scopes: ['keys.manage'] }), 403, 'permission_error', 'scope_not_grantable');
    const live = await app.request('POST', '/v1/developer/keys', { key: dev.token, headers: { 'x-mode': 'live' }, body: { name: 'Escalation', mode: 'live' } });
    expectEnvelope(live, 403, 'permission_error', 'scope_not_grantable');
    expect(await countRows(app, 'api_keys')).toBe(before);
    const ownerSecret = await create(owner.token, { name: 'Owner secret' });
    expect(ownerSecret.status).toBe(201);
    expect(ownerSecret.body.apiKey.scopes).not.toContain('intake.review');
    const restricted = await create(dev.token, { name: 'Dev webhooks', keyType: 'restricted', scopes: ['webhooks.manage'] });
    expect(restricted.status).toBe(201);
    expect(restricted.body.apiKey.createdBy).toEqual({ type: 'user', id: dev.id });
    const ownerKey = await create(owner.token, { name: 'Owner patients', keyType: 'restricted', scopes: ['patients.read', 'orders.write'] });
    expect(ownerKey.status).toBe(201);
  });

  it('lets a secret key and ops create secret keys, and says so', async () => {
    const bySecret = await create(a.sandboxKey, { name: 'From a secret key' });
    expect(bySecret.status).toBe(201);
    expect(bySecret.body.apiKey.createdBy).toEqual({ type: 'api_key', id: await idOf(a.sandboxKey, a.sandboxKey) });
    const byOps = await app.request('POST', `/v1/developer/keys/ops/tenants/${a.tenantId}`, { key: OPS_KEY, body: { name: 'From ops' } });
    expect(byOps.status).toBe(201);
    expect(byOps.body.apiKey.createdBy.type).toBe('ops');
  });

  it('keeps what a revoked key or a deactivated user created, and lists who created it', async () => {
    const t = await createTenantWithKeys(app, 'Creators');
    const owner = await createUserAndLogin(app, t.tenantId, { email: 'owner@creators.test', role: 'owner' });
    const dev = await createUserAndLogin(app, t.tenantId, { email: 'dev@creators.test', role: 'developer' });
    const manager = await create(t.sandboxKey, { name: 'Manager', keyType: 'restricted', scopes: ['keys.manage', 'orders.read'] });
    const fromKey = await create(manager.body.key, { name: 'Reader', keyType: 'restricted', scopes: ['orders.read'] });
    const fromDev = await create(dev.token, { name: 'Dev reader', keyType: 'restricted', scopes: ['orders.read'] });
    expect((await app.request('DELETE', `/v1/developer/keys/${manager.body.apiKey.id}`, { key: t.sandboxKey })).status).toBe(200);
    expect((await app.request('DELETE', `/v1/users/${dev.id}`, { key: owner.token })).status).toBe(200);
    expect((await app.request('GET', '/v1/orders', { key: fromKey.body.key })).status).toBe(200);
    expect((await app.request('GET', '/v1/orders', { key: fromDev.body.key })).status).toBe(200);
    const listed = (await list(t.sandboxKey)).body as { id: string; createdBy: unknown }[];
    const creator = (id: string) => listed.find((k) => k.id === id)?.createdBy;
    expect(creator(fromKey.body.apiKey.id)).toEqual({ type: 'api_key', id: manager.body.apiKey.id });
    expect(creator(fromDev.body.apiKey.id)).toEqual({ type: 'user', id: dev.id });
    expect(creator(manager.body.apiKey.id)).toEqual({ type: 'api_key', id: await idOf(t.sandboxKey, t.sandboxKey) });
    expect((creator(await idOf(t.sandboxKey, t.sandboxKey)) as { type: string }).type).toBe('ops');
    const opsListed = (await app.request('GET', `/v1/developer/keys/ops/tenants/${t.tenantId}`, { key: OPS_KEY })).body as { id: string; createdBy: unknown }[];
    expect(opsListed.find((k) => k.id === fromDev.body.apiKey.id)?.createdBy).toEqual({ type: 'user', id: dev.id });
  });
});

describe('GET /developer/keys', () => {
  it('lists newest first, within the tenant only', async () => {
    const first = await create(b.liveKey, { name: 'first' });
    const second = await create(b.liveKey, { name: 'second' });
    const ids = (await list(b.liveKey)).body.map((k: { id: string }) => k.id);
    expect(ids.indexOf(second.body.apiKey.id)).toBeLessThan(ids.indexOf(first.body.apiKey.id));
    const other = (await list(a.liveKey)).body.map((k: { id: string }) => k.id);
    expect(other).not.toContain(first.body.apiKey.id);
  });

  it('shows a sandbox credential only sandbox keys; a live credential both modes', async () => {
    const sandboxView = (await list(a.sandboxKey)).body as { mode: string }[];
    expect(sandboxView.every((k) => k.mode === 'sandbox')).toBe(true);
    const liveView = (await list(a.liveKey)).body as { mode: string }[];
    expect(new Set(liveView.map((k) => k.mode))).toEqual(new Set(['sandbox', 'live']));
  });

  it('needs the keys.manage scope', async () => {
    const restricted = await create(a.sandboxKey, { name: 'R', keyType: 'restricted', scopes: ['orders.read'] });
    expectEnvelope(await list(restricted.body.key), 403, 'permission_error', 'missing_scope');
  });
});

describe('DELETE /developer/keys/{id}', () => {
  it('revokes irreversibly; repeating is a no-op; the key stops working at once', async () => {
    const made = await create(a.sandboxKey, { name: 'Doomed' });
    expect((await list(made.body.key)).status).toBe(200);
    const first = await app.request('DELETE', `/v1/developer/keys/${made.body.apiKey.id}`, { key: a.sandboxKey });
    expect(first.status).toBe(200);
    expect(first.body.revokedAt).not.toBeNull();
    const again = await app.request('DELETE', `/v1/developer/keys/${made.body.apiKey.id}`, { key: a.sandboxKey });
    expect(again.status).toBe(200);
    expect(again.body.revokedAt).toBe(first.body.revokedAt);
    expectEnvelope(await list(made.body.key), 401, 'authentication_error', 'api_key_revoked');
  });

  // Issue 20: the rendered statement behind the revoke's lookup ignored `bothModes` (404 for a key it lists).
  it('lets a live key revoke the tenant’s sandbox keys, which it lists', async () => {
    const t = await createTenantWithKeys(app, 'Live revokes sandbox');
    const sandboxKey = await create(t.sandboxKey, { name: 'Sandbox worker' });
    expect((await list(t.liveKey)).body.map((k: { id: string }) => k.id)).toContain(sandboxKey.body.apiKey.id);
    const revoked = await app.request('DELETE', `/v1/developer/keys/${sandboxKey.body.apiKey.id}`, { key: t.liveKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: sandboxKey.body.apiKey.id, mode: 'sandbox' });
    expect(revoked.body.revokedAt).not.toBeNull();
    expectEnvelope(await list(sandboxKey.body.key), 401, 'authentication_error', 'api_key_revoked');
  });

  it('answers 404 for unknown ids, other tenants’ keys and the other mode’s keys', async () => {
    expectEnvelope(await app.request('DELETE', '/v1/developer/keys/key_nope', { key: a.sandboxKey }), 404, 'not_found');
    const bKey = await create(b.sandboxKey, { name: 'B' });
    expectEnvelope(await app.request('DELETE', `/v1/developer/keys/${bKey.body.apiKey.id}`, { key: a.sandboxKey }), 404, 'not_found');
    expectEnvelope(await app.request('DELETE', `/v1/developer/keys/${bKey.body.apiKey.id}`, { key: a.liveKey }), 404, 'not_found');
    const live = await create(a.liveKey, { name: 'L', mode: 'live' });
    expectEnvelope(await app.request('DELETE', `/v1/developer/keys/${live.body.apiKey.id}`, { key: a.sandboxKey }), 404, 'not_found');
    expect((await list(live.body.key)).status).toBe(200);
  });
});

describe('ops endpoints', () => {
  it('lets ops mint, list and revoke keys of any tenant', async () => {
    const minted = await app.request('POST', `/v1/developer/keys/ops/tenants/${b.tenantId}`, { key: OPS_KEY, body: { name: 'Relay', mode: 'live' } });
    expect(minted.status).toBe(201);
    expect(minted.body.key).toMatch(/^nk_live_/);
    const listed = await app.request('GET', `/v1/developer/keys/ops/tenants/${b.tenantId}`, { key: OPS_KEY });
    expect(listed.body.map((k: { id: string }) => k.id)).toContain(minted.body.apiKey.id);
    const revoked = await app.request('DELETE', `/v1/developer/keys/ops/tenants/${b.tenantId}/${minted.body.apiKey.id}`, { key: OPS_KEY });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    expectEnvelope(await app.request('DELETE', `/v1/developer/keys/ops/tenants/${a.tenantId}/${minted.body.apiKey.id}`, { key: OPS_KEY }), 404, 'not_found');
  });

  it('revokes a tenant’s sandbox key, which the ops list shows', async () => {
    const t = await createTenantWithKeys(app, 'Ops revokes sandbox');
    const sandbox = (await app.request('GET', `/v1/developer/keys/ops/tenants/${t.tenantId}`, { key: OPS_KEY })).body.find((k: { mode: string }) => k.mode === 'sandbox');
    const revoked = await app.request('DELETE', `/v1/developer/keys/ops/tenants/${t.tenantId}/${sandbox.id}`, { key: OPS_KEY });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: sandbox.id, mode: 'sandbox' });
    expect(revoked.body.revokedAt).not.toBeNull();
    expectEnvelope(await list(t.sandboxKey), 401, 'authentication_error', 'api_key_revoked');
    expect((await list(t.liveKey)).status).toBe(200);
  });

  it('answers 404 for an unknown tenant and never grants ops scopes', async () => {
    expectEnvelope(await app.request('GET', '/v1/developer/keys/ops/tenants/ten_nope', { key: OPS_KEY }), 404, 'not_found');
    expectEnvelope(await app.request('POST', '/v1/developer/keys/ops/tenants/ten_nope', { key: OPS_KEY, body: { name: 'x' } }), 404, 'not_found');
    const ops = await app.request('POST', `/v1/developer/keys/ops/tenants/${a.tenantId}`, {
      key: OPS_KEY,
      body: { name: 'x', keyType: 'restricted', scopes: ['ops.*'] },
    });
    expectEnvelope(ops, 403, 'permission_error');
  });

  it('refuses tenant credentials on ops endpoints and ops credentials on tenant endpoints', async () => {
    for (const [method, path] of [
      ['GET', '/v1/ops/tenants'],
      ['POST', '/v1/ops/tenants'],
      ['GET', `/v1/developer/keys/ops/tenants/${a.tenantId}`],
      ['POST', `/v1/developer/keys/ops/tenants/${a.tenantId}`],
    ]) {
      expectEnvelope(await app.request(method, path, { key: a.liveKey, body: method === 'POST' ? { name: 'x' } : undefined }), 403, 'permission_error');
    }
    expectEnvelope(await list(OPS_KEY), 403, 'permission_error', 'tenant_credential_required');
  });

  it('creates and lists tenants', async () => {
    const made = await app.request('POST', '/v1/ops/tenants', { key: OPS_KEY, body: { name: 'New Clinic', plan: 'growth' } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'New Clinic', plan: 'growth' });
    expect(made.body.id).toMatch(/^ten_/);
    const all = await app.request('GET', '/v1/ops/tenants', { key: OPS_KEY });
    expect(all.body[0].id).toBe(made.body.id);
    const before = await countRows(app, 'tenants');
    expectEnvelope(await app.request('POST', '/v1/ops/tenants', { key: OPS_KEY, body: { name: 'x', plan: 'platinum' } }), 400, 'validation_error');
    expect(await countRows(app, 'tenants')).toBe(before);
  });
});
