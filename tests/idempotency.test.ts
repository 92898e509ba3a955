import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apiKeys, idempotencyKeys } from '@/db/schema';
import { requestFingerprint } from '@/server/domain/developer/idempotency';
import { catalogWorld } from './helpers/catalog-world';
import { setClock } from '@/server/lib/clock';
import { type Clinic, countRows, expectEnvelope, startWithTwoClinics, type TestApp } from './helpers/harness';

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => ({ app, a, b } = await startWithTwoClinics()));
afterAll(async () => app?.close());
afterEach(() => setClock(null));

const create = (key: string, body: unknown, idempotencyKey?: string) => app.request('POST', '/v1/developer/keys', { key, body, idempotencyKey });

describe('Idempotency-Key', () => {
  it('replays the first response for a retry and creates nothing new', async () => {
    const ik = randomUUID();
    const first = await create(a.sandboxKey, { name: 'Once' }, ik);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const before = await countRows(app, 'api_keys');
    const retry = await create(a.sandboxKey, { name: 'Once' }, ik);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.apiKey).toEqual(first.body.apiKey);
    expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(await countRows(app, 'api_keys')).toBe(before);
  });

  it('answers 409 idempotency_key_reused for the same key with a different request', async () => {
    const ik = randomUUID();
    await create(a.sandboxKey, { name: 'One' }, ik);
    const before = await countRows(app, 'api_keys');
    expectEnvelope(await create(a.sandboxKey, { name: 'Two' }, ik), 409, 'conflict', 'idempotency_key_reused');
    expectEnvelope(await app.request('DELETE', '/v1/developer/keys/key_x', { key: a.sandboxKey, idempotencyKey: ik }), 409, 'conflict', 'idempotency_key_reused');
    expect(await countRows(app, 'api_keys')).toBe(before);
  });

  it('rejects a key that is not a UUID and writes nothing', async () => {
    const before = await countRows(app, 'api_keys');
    const res = await create(a.sandboxKey, { name: 'Bad' }, 'not-a-uuid');
    expectEnvelope(res, 400, 'validation_error', 'invalid_idempotency_key');
    expect(await countRows(app, 'api_keys')).toBe(before);
  });

  /** A claimed, unfinished record: what a request running outside one transaction (or a crashed one) leaves. */
  async function inFlight(ik: string, name: string, leaseUntil: Date) {
    const [{ id }] = await app.services.database.db.select({ id: apiKeys.id }).from(apiKeys).where(and(eq(apiKeys.prefix, a.sandboxKey.slice(0, 12)), eq(apiKeys.last4, a.sandboxKey.slice(-4))));
    await app.services.database.db.insert(idempotencyKeys).values({
      id: `req_inflight_${ik}`,
      scope: a.tenantId,
      livemode: false,
      key: ik,
      requestHash: requestFingerprint('POST', '/v1/developer/keys', JSON.stringify({ name })),
      credential: id,
      state: 'in_flight',
      leaseUntil,
      createdAt: new Date(),
    });
  }

  it('answers 409 idempotency_key_in_use while the first request runs', async () => {
    const ik = randomUUID();
    await inFlight(ik, 'Busy', new Date(Date.now() + 60_000));
    expectEnvelope(await create(a.sandboxKey, { name: 'Busy' }, ik), 409, 'conflict', 'idempotency_key_in_use');
  });

  it('takes over a claim whose owner died (its lease lapsed) and runs the request', async () => {
    const ik = randomUUID();
    await inFlight(ik, 'Orphaned', new Date(Date.now() - 1));
    const before = await countRows(app, 'api_keys');
    const res = await create(a.sandboxKey, { name: 'Orphaned' }, ik);
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(await countRows(app, 'api_keys')).toBe(before + 1);
    const replay = await create(a.sandboxKey, { name: 'Orphaned' }, ik);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.apiKey.id).toBe(res.body.apiKey.id);
  });

  it('executes exactly once under concurrent retries', async () => {
    const ik = randomUUID();
    const before = await countRows(app, 'api_keys');
    const results = await Promise.all(Array.from({ length: 10 }, () => create(a.sandboxKey, { name: 'Race' }, ik)));
    expect(await countRows(app, 'api_keys')).toBe(before + 1);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.apiKey.id)).size).toBe(1);
    for (const r of results.filter((x) => x.status !== 201)) expectEnvelope(r, 409, 'conflict', 'idempotency_key_in_use');
  });

  it('is scoped per tenant and per mode', async () => {
    const ik = randomUUID();
    const inA = await create(a.sandboxKey, { name: 'Same' }, ik);
    const inB = await create(b.sandboxKey, { name: 'Same' }, ik);
    const inALive = await create(a.liveKey, { name: 'Same' }, ik);
    expect(inB.headers.get('idempotent-replayed')).toBeNull();
    expect(inALive.headers.get('idempotent-replayed')).toBeNull();
    expect(new Set([inA.body.apiKey.id, inB.body.apiKey.id, inALive.body.apiKey.id]).size).toBe(3);
  });

  it('forgets a key after 24 hours', async () => {
    const ik = randomUUID();
    const first = await create(a.sandboxKey, { name: 'Old' }, ik);
    setClock(() => new Date(Date.now() + 24 * 3600_000 + 1000));
    const later = await create(a.sandboxKey, { name: 'Old' }, ik);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.apiKey.id).not.toBe(first.body.apiKey.id);
  });

  it('a keyed create that a unique index refuses still answers its 409, and a corrected retry runs', async () => {
    const product = await catalogWorld(app, a.sandboxKey).product();
    const order = (foreignOrderId: string) => ({ items: [{ productId: product.id, quantity: 1, sig: 'Daily' }], foreignOrderId });
    const taken = await app.request('POST', '/v1/orders', { key: a.sandboxKey, body: order('shop-1') });
    const ik = randomUUID();
    const dup = await app.request('POST', '/v1/orders', { key: a.sandboxKey, body: order('shop-1'), idempotencyKey: ik });
    expectEnvelope(dup, 409, 'conflict', 'duplicate_foreign_order');
    expect(dup.body.error.message).toContain(taken.body.id);
    const ok = await app.request('POST', '/v1/orders', { key: a.sandboxKey, body: order('shop-2'), idempotencyKey: ik });
    expect(ok.status).toBe(201);
  });

  it('does not store failures, so a corrected retry runs', async () => {
    const ik = randomUUID();
    expectEnvelope(await create(a.sandboxKey, { name: 'R', keyType: 'restricted' }, ik), 400, 'validation_error');
    expectEnvelope(await app.request('DELETE', '/v1/developer/keys/key_missing', { key: a.sandboxKey, idempotencyKey: ik }), 404, 'not_found');
  });
});
