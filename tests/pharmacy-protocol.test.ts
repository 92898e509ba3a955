import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPharmacy, type TestPharmacy } from '@/scripts/test-pharmacy';
import { ZCatalogFeed, ZOrderState, ZStatusCallback } from '@/server/integrations/pharmacies/protocol/schemas';
import { PROTOCOL_TIMINGS } from '@/server/integrations/pharmacies/protocol/timings';
import { loadConfig } from '@/server/lib/config';
import { catalogWorld } from './helpers/catalog-world';
import { startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld } from './helpers/orders-world';

/*
 * Issue 54, item 1: the pharmacy protocol's OpenAPI document (GET /v1/pharmacy-protocol/openapi.json) says what the
 * `http` adapter does. The adapter's real request, sent through the API's dispatch to a local pharmacy, validates
 * against the document's OrderRequest, and its answer against OrderState; for every sample answer, callback and
 * catalog, the document (through a JSON Schema validator, ajv) and the adapter's own schemas give the same verdict.
 * Any edit to one that the other does not follow fails here.
 */

const PUBLIC_URL = 'https://rail.example.test';
let app: TestApp;
let pharmacy: TestPharmacy;
let doc: any;
let ajv: any;

beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL });
  pharmacy = await startTestPharmacy();
  const res = await app.request('GET', '/v1/pharmacy-protocol/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  ajv = new (Ajv2020 as unknown as new (o: object) => any)({ strict: false, allErrors: true });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  ajv.addSchema({ $id: 'https://protocol.test/doc', components: doc.components });
});
afterAll(async () => {
  await pharmacy?.close();
  await app?.close();
});

/** The document's verdict on `value` as a `name` (a component schema), by a JSON Schema validator. */
const documentSays = (name: string, value: unknown): boolean => ajv.validate({ $ref: `https://protocol.test/doc#/components/schemas/${name}` }, value);

describe('GET /v1/pharmacy-protocol/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without a credential, cacheable', async () => {
    const res = await app.request('GET', '/v1/pharmacy-protocol/openapi.json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(doc.paths).sort()).toEqual(['/catalog', '/orders', '/orders/{idempotencyKey}', '/orders/{idempotencyKey}/cancel']);
    expect(doc.paths['/orders'].post.callbacks.statusChanged['{$request.body#/callbackUrl}'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/StatusCallback' });
    expect(doc.webhooks.statusCallback.post.operationId).toBe('statusCallback');
  });

  it('is listed in the API document', async () => {
    const api = (await app.request('GET', '/v1/openapi.json')).body;
    expect(api.paths['/pharmacy-protocol/openapi.json'].get.security).toEqual([]);
  });

  it('states the waits the service applies: the connection timeout and the worker defaults', () => {
    const config = loadConfig({});
    expect(PROTOCOL_TIMINGS.dispatchGraceMs).toBe(config.DISPATCH_GRACE_MS);
    expect(PROTOCOL_TIMINGS.syncIntervalMs).toBe(config.ORDER_SYNC_INTERVAL_MS);
    expect(doc.info.description).toContain(`default ${PROTOCOL_TIMINGS.defaultTimeoutMs} ms, at most ${PROTOCOL_TIMINGS.maxTimeoutMs} ms`);
  });
});

describe('the document and the adapter agree', () => {
  it("the adapter's real order request (dispatched through the API) and the pharmacy's answer validate against the document", async () => {
    const w = await ordersWorld(app, 'Protocol', { mode: 'live' });
    const conn = await catalogWorld(app, w.key).pharmacy('Remote', ['CA'], { baseUrl: pharmacy.url }, { adapter: 'http' });
    pharmacy.secret = conn.secret;
    // Cheaper than the simulated pharmacies, so routing picks it.
    await catalogWorld(app, w.key).approvedCatalog(conn.id, [['GLP', 'R-GLP', 1, 50, 1]]);
    const order = (await w.create()).body;
    const approved = await w.approve(order.id);
    expect(approved.status).toBe(201);
    expect(approved.body).toMatchObject({ status: 'submitted', pharmacyConnectionId: conn.id });

    const [sent] = [...pharmacy.orders.values()];
    expect(documentSays('OrderRequest', sent.body), JSON.stringify(ajv.errors)).toBe(true);
    expect(sent.body).toMatchObject({ orderId: order.id, livemode: true, callbackUrl: `${PUBLIC_URL}/v1/pharmacy-callbacks/${conn.id}` });
    const { body: _body, ...answer } = sent;
    expect(documentSays('OrderState', answer)).toBe(true);
    // And what the document forbids, the adapter never sends: no field outside the document.
    expect(documentSays('OrderRequest', { ...(sent.body as object), extra: 1 })).toBe(false);
  });

  const answers: unknown[] = [
    { externalId: 'x', status: 'received' },
    { externalId: 'x', status: 'accepted', reasonCode: 'prior_authorization_required', estimatedDelivery: '2026-12-01' },
    { externalId: 'x', status: 'rejected', reasonCode: 'a_code_we_do_not_know' },
    { externalId: 'x', status: 'rejected', reasonCode: 'Out of stock' },
    { externalId: 'x', status: 'processing' },
    { externalId: '', status: 'received' },
    { externalId: 'x', status: 'shipped', tracking: { carrier: 'UPS', number: '1Z', url: 'https://ups.test/1Z' }, yourOwnField: true },
    { externalId: 'x', status: 'shipped', tracking: { carrier: 'UPS' } },
    { externalId: 'x', status: 'shipped', tracking: { carrier: 'UPS', number: '1Z', weight: 2 } },
    { status: 'received' },
    'received',
  ];
  it.each(answers.map((a) => [JSON.stringify(a), a]))('order answer %s', (_, value) => {
    expect(documentSays('OrderState', value)).toBe(ZOrderState.safeParse(value).success);
  });

  const callbacks: unknown[] = [
    { idempotencyKey: 'dsp_1', status: 'accepted' },
    { idempotencyKey: 'dsp_1', status: 'shipped', tracking: { carrier: 'UPS', number: '1Z', url: null }, estimatedDelivery: '2026-12-01' },
    { idempotencyKey: 'dsp_1', status: 'received' },
    { idempotencyKey: 'dsp_1', status: 'rejected', reasonCode: 'out_of_stock' },
    { idempotencyKey: 'dsp_1', status: 'rejected', reasonCode: 'not a code' },
    { idempotencyKey: 'dsp_1', status: 'shipped', estimatedDelivery: '2026-13-01' },
    { idempotencyKey: 'dsp_1', status: 'shipped', tracking: { carrier: 'UPS', number: '1Z', url: 'not a url' } },
    { idempotencyKey: '', status: 'accepted' },
    { status: 'accepted' },
  ];
  it.each(callbacks.map((c) => [JSON.stringify(c), c]))('callback %s', (_, value) => {
    expect(documentSays('StatusCallback', value)).toBe(ZStatusCallback.safeParse(value).success);
  });

  const row = { sku: 'GLP', itemCode: 'R-1', priceCents: 1500, stock: 3, etaDays: 2 };
  const catalogs: unknown[] = [
    { items: [] },
    { items: [row] },
    { items: [{ ...row, priceCents: -1 }] },
    { items: [{ ...row, priceCents: 1.5 }] },
    { items: [{ ...row, colour: 'blue' }] },
    { items: [{ ...row, etaDays: 366 }] },
    { rows: [row] },
  ];
  it.each(catalogs.map((c) => [JSON.stringify(c), c]))('catalog %s', (_, value) => {
    expect(documentSays('CatalogFeed', value)).toBe(ZCatalogFeed.safeParse(value).success);
  });
});
