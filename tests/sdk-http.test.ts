import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, FulfillmentRail, NotFoundError, PermissionError, ValidationError } from '@/sdk/src/index';
import { createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld } from './helpers/orders-world';

// The SDK against the real app over HTTP (both databases): typed answers, typed errors, pagination, idempotency.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('@fulfillment-rail/sdk over HTTP', () => {
  it('creates and reads through typed resources, and walks every page of a list', async () => {
    const w = await ordersWorld(app, 'SDK');
    const client = new FulfillmentRail(w.key, { baseUrl: app.baseUrl });
    expect(client.mode).toBe('sandbox');
    const patient = await client.patients.create({ synthetic: true });
    expect(patient).toMatchObject({ id: expect.stringMatching(/^pat_/), synthetic: true, livemode: false });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const order = await client.orders.create({ patientId: patient.id, items: [{ productId: w.products.glp, quantity: 1, sig: `Dose ${i}` }] });
      made.push(order.id);
    }
    expect((await client.orders.retrieve(made[0])).id).toBe(made[0]);

    const seen: string[] = [];
    for await (const order of client.list('/orders', { params: { query: { limit: 2 } } })) seen.push(order.id);
    expect(seen).toEqual([...made].reverse()); // newest first, across three pages
    const firstPage = await client.orders.list({ limit: 2 });
    expect(firstPage.map((o) => o.id)).toEqual(made.slice(-2).reverse());

    for (const id of made.slice(0, 3)) await client.orders.cancel(id);
    const events = await client.list('/developer/events', { params: { query: { limit: 1, type: 'order.cancelled' } } }).toArray();
    expect(events.map((e) => e.data.orderId)).toEqual(made.slice(0, 3).reverse());
  });

  it("throws the envelope as typed errors carrying type, code, param and the request's id", async () => {
    const t = await createTenantWithKeys(app, 'SDK errors');
    const client = new FulfillmentRail(t.sandboxKey, { baseUrl: app.baseUrl });
    const missing = await client.orders.retrieve('ord_00000000000000000000000000').catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ type: 'not_found', statusCode: 404, requestId: expect.stringMatching(/^req_/) });
    expect(missing.requestId).toBe(missing.headers.get('x-request-id'));

    const invalid = await client.post('/developer/keys', { body: { name: 'x', keyType: 'restricted' } }).catch((e) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ code: 'scopes_required', param: 'scopes', statusCode: 400 });

    const submit = await client.orders.submit('ord_00000000000000000000000000').catch((e) => e);
    expect(submit).toBeInstanceOf(NotFoundError);
    const unauthenticated = await new FulfillmentRail('nk_sandbox_00000000000000000000000000000000', { baseUrl: app.baseUrl }).orders.list().then(
      () => null,
      (e) => e,
    );
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);
    const live = new FulfillmentRail(t.liveKey, { baseUrl: app.baseUrl });
    expect(live.livemode).toBe(true);
    await expect(live.post('/billing/test-clock/advance', { body: { days: 1 } })).rejects.toSatisfy((e) => e instanceof NotFoundError || e instanceof PermissionError);
  });

  it('sends an Idempotency-Key with every mutation: a repeated call with the same key is replayed, not repeated', async () => {
    const t = await createTenantWithKeys(app, 'SDK idempotency');
    const client = new FulfillmentRail(t.sandboxKey, { baseUrl: app.baseUrl });
    const key = crypto.randomUUID();
    const first = await client.patients.create({ synthetic: true }, { idempotencyKey: key });
    const again = await client.patients.create({ synthetic: true }, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    const other = await client.patients.create({ synthetic: true });
    expect(other.id).not.toBe(first.id);
    const raw = await client.api.POST('/patients', { body: { synthetic: true }, headers: { 'Idempotency-Key': key } });
    expect(raw.response.headers.get('idempotent-replayed')).toBe('true');
  });
});
