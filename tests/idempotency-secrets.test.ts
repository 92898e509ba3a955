import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runMaintenance } from '@/server/jobs/maintenance';
import { setClock } from '@/server/lib/clock';
import { type Clinic, countRows, createUserAndLogin, expectEnvelope, OPS_KEY, startWithTwoClinics, type TestApp } from './helpers/harness';
import { freshTotp } from './helpers/totp';

/**
 * Issue 20, item 4: the idempotency store holds no plaintext secret and no PHI, a stored answer belongs to
 * the credential that made it, and records go after 24 hours.
 */
let app: TestApp;
let a: Clinic;

beforeAll(async () => ({ app, a } = await startWithTwoClinics()));
afterAll(async () => app?.close());
afterEach(() => setClock(null));

/** Every stored idempotency record as text, to search for what must not be there. */
async function storeText(): Promise<string> {
  const res = (await app.services.database.db.execute(sql`select row_to_json(k)::text as j from idempotency_keys k`)) as unknown as { rows: { j: string }[] };
  return res.rows.map((r) => r.j).join('\n');
}

/** Sends the same request twice with one key; returns both answers. */
async function twice(method: string, path: string, key: string, body: unknown) {
  const idempotencyKey = randomUUID();
  const first = await app.request(method, path, { key, body, idempotencyKey });
  const retry = await app.request(method, path, { key, body, idempotencyKey });
  return { first, retry, idempotencyKey };
}

function expectSecretReplay(first: { status: number; body: any }, retry: { status: number; headers: Headers; body: any }, field: string) {
  expect(retry.status).toBe(first.status);
  expect(retry.headers.get('idempotent-replayed')).toBe('true');
  expect(typeof first.body[field]).toBe('string');
  expect(first.body.note).toBeUndefined();
  expect(retry.body[field]).toBeNull();
  expect(retry.body.note).toMatch(/shown only once/);
  const { [field]: _a, note: _n, ...rest } = retry.body;
  const { [field]: _b, ...firstRest } = first.body;
  expect(rest).toEqual(firstRest);
}

describe('secrets are not kept for replays', () => {
  it('API key create: the store never holds the plaintext key; a replay answers key: null with a note', async () => {
    const { first, retry } = await twice('POST', '/v1/developer/keys', a.sandboxKey, { name: 'Replayed' });
    expect(first.status).toBe(201);
    expect(await storeText()).not.toContain(first.body.key);
    expectSecretReplay(first, retry, 'key');
    // The key itself works; the replay only withholds it.
    expect((await app.request('GET', '/v1/developer/keys', { key: first.body.key })).status).toBe(200);
  });

  it('ops key create for a tenant: the plaintext is not stored and not replayed', async () => {
    const { first, retry } = await twice('POST', `/v1/developer/keys/ops/tenants/${a.tenantId}`, OPS_KEY, { name: 'Ops minted' });
    expect(first.status).toBe(201);
    expect(await storeText()).not.toContain(first.body.key);
    expectSecretReplay(first, retry, 'key');
  });

  it('webhook endpoint create: the whsec_ secret is not stored and not replayed', async () => {
    const { first, retry } = await twice('POST', '/v1/developer/webhooks', a.sandboxKey, { url: 'http://localhost:9/hook' });
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);
    expect(await storeText()).not.toContain(first.body.secret);
    expectSecretReplay(first, retry, 'secret');
  });

  it('pharmacy connection create: the whsec_ secret is not stored and not replayed', async () => {
    const { first, retry } = await twice('POST', '/v1/pharmacies', a.sandboxKey, { name: 'Replay Rx', adapter: 'simulated', settings: {}, states: ['CA'] });
    expect(first.status).toBe(201);
    expect(first.body.secret).toMatch(/^whsec_/);
    expect(await storeText()).not.toContain(first.body.secret);
    expectSecretReplay(first, retry, 'secret');
  });

  it('MFA enroll: the TOTP secret and its URI are not stored and not replayed', async () => {
    const user = await createUserAndLogin(app, a.tenantId, { email: `mfa-${randomUUID()}@clinic.test`, role: 'admin' });
    const { first, retry } = await twice('POST', '/v1/auth/mfa/enroll', user.token, {});
    expect(first.status).toBe(200);
    const text = await storeText();
    expect(text).not.toContain(first.body.secret);
    expect(text).not.toContain('otpauth://');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toMatchObject({ secret: null, otpauthUri: null, note: expect.stringMatching(/shown only once/) });
    // The first answer's secret is the one enrolled.
    const verify = await app.request('POST', '/v1/auth/mfa/verify', { key: user.token, body: { code: await freshTotp(first.body.secret) } });
    expect(verify.status).toBe(200);
  });
});

describe('PHI is not kept for replays', () => {
  const PATIENT = { firstName: 'Ottoline', lastName: 'Storedname', dateOfBirth: '1968-03-09', sex: 'female', email: 'ottoline@replaymail.test', address: { line1: '4 Vault Rd', city: 'Town', state: 'CA', postalCode: '90001' } };

  it('patient create keeps only the id; a replay reads the record again and logs the read', async () => {
    const { first, retry } = await twice('POST', '/v1/patients', a.sandboxKey, PATIENT);
    expect(first.status).toBe(201);
    const text = await storeText();
    for (const phi of ['Ottoline', 'Storedname', '1968-03-09', 'replaymail', 'Vault Rd']) expect(text).not.toContain(phi);
    expect(text).toContain(first.body.id);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    const log = await app.request('GET', `/v1/patients/${first.body.id}/access-log`, { key: a.sandboxKey });
    expect(log.body[0]).toMatchObject({ action: 'read', requestId: retry.headers.get('x-request-id') });
  });

  it('patient update keeps only the id', async () => {
    const created = await app.request('POST', '/v1/patients', { key: a.sandboxKey, body: PATIENT });
    const { first, retry } = await twice('PATCH', `/v1/patients/${created.body.id}`, a.sandboxKey, { lastName: 'Patchedsurname' });
    expect(first.status).toBe(200);
    expect(first.body.lastName).toBe('Patchedsurname');
    expect(await storeText()).not.toContain('Patchedsurname');
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
  });
});

describe('a stored answer belongs to its credential', () => {
  it('another key of the same tenant replaying the key gets 409 idempotency_key_reused and nothing is written', async () => {
    const other = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'Second credential' } });
    const body = { name: 'Bound' };
    const idempotencyKey = randomUUID();
    const first = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body, idempotencyKey });
    expect(first.status).toBe(201);
    const before = await countRows(app, 'api_keys');
    const stolen = await app.request('POST', '/v1/developer/keys', { key: other.body.key, body, idempotencyKey });
    expectEnvelope(stolen, 409, 'conflict', 'idempotency_key_reused');
    expect(stolen.text).not.toContain(first.body.apiKey.id);
    expect(await countRows(app, 'api_keys')).toBe(before);
  });

  it('a user session cannot replay what an API key of its tenant stored', async () => {
    const user = await createUserAndLogin(app, a.tenantId, { email: `own-${randomUUID()}@clinic.test`, role: 'admin' });
    const idempotencyKey = randomUUID();
    const body = { name: 'Owned by key' };
    expect((await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body, idempotencyKey })).status).toBe(201);
    expectEnvelope(await app.request('POST', '/v1/developer/keys', { key: user.token, body, idempotencyKey }), 409, 'conflict', 'idempotency_key_reused');
  });
});

describe('retention', () => {
  it('the maintenance job purges records older than 24 hours and keeps newer ones', async () => {
    const old = randomUUID();
    const fresh = randomUUID();
    await app.request('POST', '/v1/products', { key: a.sandboxKey, body: { name: 'Old', sku: `OLD-${old}`, form: 'tablet' }, idempotencyKey: old });
    setClock(() => new Date(Date.now() + 24 * 3600_000 - 60_000));
    await app.request('POST', '/v1/products', { key: a.sandboxKey, body: { name: 'Fresh', sku: `NEW-${fresh}`, form: 'tablet' }, idempotencyKey: fresh });
    setClock(() => new Date(Date.now() + 24 * 3600_000 + 1_000));
    await runMaintenance(app.services.database.db, app.services.config);
    const text = await storeText();
    expect(text).not.toContain(old);
    expect(text).toContain(fresh);
  });
});
