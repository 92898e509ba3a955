import { describe, expect, it } from 'vitest';
import {
  backoffMs,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  FulfillmentRail,
  modeFromKey,
  NotFoundError,
  RateLimitError,
  retryAfterMs,
  ValidationError,
  verifyWebhook,
  WebhookVerificationError,
} from '@/sdk/src/index';
import { Webhook } from 'standardwebhooks';

/** A scripted fetch: each call takes the next answer (a Response, or an Error to throw) and records the request. */
function fakeFetch(answers: (Response | Error | ((req: Request) => Response))[]) {
  const seen: { method: string; url: string; headers: Headers; body: string }[] = [];
  const fetch = (async (input: Request) => {
    seen.push({ method: input.method, url: input.url, headers: new Headers(input.headers), body: await input.text() });
    const next = answers.shift();
    if (!next) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next(input) : next;
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const envelope = (type: string, code: string, extra: Record<string, unknown> = {}) => ({ error: { type, code, message: `${code} happened`, request_id: 'req_123', ...extra } });
const ORDER = { id: 'ord_1', status: 'draft' };

function client(answers: Parameters<typeof fakeFetch>[0], opts: { random?: () => number; maxRetries?: number } = {}) {
  const { fetch, seen } = fakeFetch(answers);
  const sleeps: number[] = [];
  const c = new FulfillmentRail('nk_sandbox_abc', {
    baseUrl: 'http://api.test',
    fetch,
    sleep: async (ms) => void sleeps.push(ms),
    random: opts.random ?? (() => 1),
    maxRetries: opts.maxRetries,
  });
  return { c, seen, sleeps };
}

describe('SDK: retries', () => {
  it('retries a GET on network errors and 5xx with exponential backoff, then answers', async () => {
    const { c, seen, sleeps } = client([new TypeError('fetch failed'), json(503, envelope('service_unavailable', 'down')), json(200, ORDER)], { random: () => 1 });
    await expect(c.orders.retrieve('ord_1')).resolves.toEqual(ORDER);
    expect(seen.map((s) => s.method)).toEqual(['GET', 'GET', 'GET']);
    expect(seen[0].url).toBe('http://api.test/v1/orders/ord_1');
    expect(seen[0].headers.get('authorization')).toBe('Bearer nk_sandbox_abc');
    expect(sleeps).toEqual([500, 1000]); // 500 · 2^n, jitter at its top
  });

  it('jitters each delay between half and all of its ceiling, capped', () => {
    const opts = { initialDelayMs: 500, maxDelayMs: 8000 };
    expect(backoffMs(0, { ...opts, random: () => 0 })).toBe(250);
    expect(backoffMs(3, { ...opts, random: () => 0.5 })).toBe(3000);
    expect(backoffMs(10, { ...opts, random: () => 1 })).toBe(8000);
  });

  it('generates one Idempotency-Key per mutation and sends the same one on every retry', async () => {
    const { c, seen } = client([json(500, envelope('api_error', 'internal')), new TypeError('fetch failed'), json(201, ORDER), json(201, ORDER)]);
    await c.orders.create({ items: [{ productId: 'prd_1', quantity: 1, sig: 'daily' }] });
    await c.orders.create({ items: [{ productId: 'prd_1', quantity: 1, sig: 'daily' }] });
    const keys = seen.map((s) => s.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]); // a new call is a new request
    expect(seen.slice(0, 3).map((s) => s.body)).toEqual(Array(3).fill(seen[0].body)); // the same body each time
    expect(JSON.parse(seen[0].body)).toEqual({ items: [{ productId: 'prd_1', quantity: 1, sig: 'daily' }] });
  });

  it("keeps the caller's own Idempotency-Key", async () => {
    const { c, seen } = client([json(201, ORDER)]);
    await c.orders.cancel('ord_1', { idempotencyKey: '0b7f1c1e-5a9e-4c43-9a53-8f6bd1a3c0d2' });
    expect(seen[0].headers.get('idempotency-key')).toBe('0b7f1c1e-5a9e-4c43-9a53-8f6bd1a3c0d2');
  });

  it('honours Retry-After on 429, and gives up when it is longer than allowed', async () => {
    const { c, sleeps } = client([json(429, envelope('rate_limit_error', 'rate_limited'), { 'retry-after': '3' }), json(200, [])]);
    await expect(c.get('/orders')).resolves.toEqual([]);
    expect(sleeps).toEqual([3000]);

    const far = client([json(429, envelope('rate_limit_error', 'rate_limited'), { 'retry-after': '3600' })]);
    const err = await far.c.get('/orders').catch((e) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect(far.seen).toHaveLength(1);
    expect(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('Wed, 21 Oct 2015 07:27:58 GMT'))).toBe(2000);
  });

  it('retries the 409 of a concurrent twin still running, but never other 4xx', async () => {
    const twin = client([json(409, envelope('conflict', 'idempotency_key_in_use')), json(201, ORDER)]);
    await expect(twin.c.orders.submit('ord_1')).resolves.toEqual(ORDER);
    expect(twin.seen).toHaveLength(2);

    const reused = client([json(409, envelope('conflict', 'idempotency_key_reused'))]);
    await expect(reused.c.orders.submit('ord_1')).rejects.toBeInstanceOf(ConflictError);
    const bad = client([json(400, envelope('validation_error', 'invalid_request', { param: 'items' }))]);
    await expect(bad.c.orders.create({ items: [] })).rejects.toBeInstanceOf(ValidationError);
    expect(reused.seen.length + bad.seen.length).toBe(2);
  });

  it('stops after maxRetries and throws a ConnectionError for a service it never reached', async () => {
    const { c, seen } = client([new TypeError('fetch failed'), new TypeError('fetch failed')], { maxRetries: 1 });
    const err = await c.orders.retrieve('ord_1').catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toContain('http://api.test');
    expect(seen).toHaveLength(2);
    const last = client([json(502, envelope('api_error', 'bad_gateway')), json(502, envelope('api_error', 'bad_gateway'))], { maxRetries: 1 });
    await expect(last.c.get('/orders')).rejects.toMatchObject({ statusCode: 502, code: 'bad_gateway' });
  });
});

describe('SDK: errors', () => {
  it("carries the envelope's type, code, param and request_id as a class per type", async () => {
    const { c } = client([json(404, envelope('not_found', 'resource_not_found', { param: 'id' }), { 'x-request-id': 'req_123' })]);
    const err = await c.orders.retrieve('ord_nope').catch((e) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ type: 'not_found', code: 'resource_not_found', param: 'id', requestId: 'req_123', statusCode: 404, message: 'resource_not_found happened' });
  });

  it('turns an answer without an envelope into an ApiError that still has a status', async () => {
    const { c } = client([new Response('<html>bad gateway</html>', { status: 400, headers: { 'x-request-id': 'req_9' } })]);
    await expect(c.get('/orders')).rejects.toMatchObject({ name: 'ApiError', statusCode: 400, code: 'unexpected_response', requestId: 'req_9' });
  });
});

describe('SDK: pagination', () => {
  it('walks a bare-array list with starting_after until a short page', async () => {
    const page = (ids: string[]) => json(200, ids.map((id) => ({ id, status: 'draft' })));
    const { c, seen } = client([page(['ord_3', 'ord_2']), page(['ord_1'])]);
    const ids: string[] = [];
    for await (const order of c.list('/orders', { params: { query: { limit: 2 } } })) ids.push(order.id);
    expect(ids).toEqual(['ord_3', 'ord_2', 'ord_1']);
    expect(seen.map((s) => new URL(s.url).search)).toEqual(['?limit=2', '?limit=2&starting_after=ord_2']);
  });

  it('walks a list object until has_more is false; awaiting gives the first page only', async () => {
    const list = (ids: string[], has_more: boolean) => json(200, { object: 'list', data: ids.map((id) => ({ id, type: 'order.shipped', data: {}, createdAt: '' })), has_more });
    const { c, seen } = client([list(['evt_2'], true), list(['evt_1'], false), list(['evt_2'], true)]);
    expect((await c.events.list().toArray()).map((e) => e.id)).toEqual(['evt_2', 'evt_1']);
    expect(new URL(seen[1].url).searchParams.get('starting_after')).toBe('evt_2');
    const first = await c.events.list();
    expect(first.has_more).toBe(true);
  });
});

describe('SDK: mode and webhooks', () => {
  it('reads sandbox or live from the key', () => {
    expect(modeFromKey('nk_live_x')).toBe('live');
    expect(modeFromKey('rk_sandbox_x')).toBe('sandbox');
    expect(modeFromKey('eyJhbGciOi')).toBeNull();
    expect(new FulfillmentRail('nk_live_x').livemode).toBe(true);
  });

  it('verifies a Standard Webhooks signature and refuses a forged or stale one', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({ id: 'evt_1', type: 'order.shipped', data: { orderId: 'ord_1' }, createdAt: '2026-01-01T00:00:00.000Z' });
    const at = new Date();
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt_1', at, body) };
    expect(verifyWebhook(body, headers, secret)).toMatchObject({ id: 'evt_1', type: 'order.shipped' });
    expect(verifyWebhook(Buffer.from(body), new Headers(headers), secret).id).toBe('evt_1');
    expect(() => verifyWebhook(body.replace('ord_1', 'ord_2'), headers, secret)).toThrow(WebhookVerificationError);
    const old = new Date(at.getTime() - 10 * 60_000);
    const stale = { ...headers, 'webhook-timestamp': String(Math.floor(old.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt_1', old, body) };
    expect(() => verifyWebhook(body, stale, secret)).toThrow(WebhookVerificationError);
  });

  it('throws ConfigurationError, with a stable code, for a missing or malformed secret, whatever the delivery', () => {
    const key = Uint8Array.from({ length: 32 }, (_, i) => 250 - i); // its base64 holds + and /
    const b64 = Buffer.from(key).toString('base64');
    expect(b64).toMatch(/[+/]/);
    expect(b64).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const secret = `whsec_${b64}`;
    const body = JSON.stringify({ id: 'evt_2', type: 'order.created', data: { orderId: 'ord_2' }, createdAt: '2026-01-01T00:00:00.000Z' });
    const at = new Date();
    const headers = { 'webhook-id': 'evt_2', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign('evt_2', at, body) };

    const cases: [string, unknown, ConfigurationError['code']][] = [
      ['empty', '', 'webhook_secret_missing'],
      ['undefined (an unset environment variable)', undefined, 'webhook_secret_missing'],
      ['the prefix alone', 'whsec_', 'webhook_secret_malformed'],
      ['no whsec_ prefix', b64, 'webhook_secret_malformed'],
      ['another prefix', `whsek_${b64}`, 'webhook_secret_malformed'],
      ['an upper-case prefix', `WHSEC_${b64}`, 'webhook_secret_malformed'],
      ['not base64 at all', 'whsec_not base64!', 'webhook_secret_malformed'],
      ['the URL-safe alphabet', `whsec_${Buffer.from(key).toString('base64url')}=`, 'webhook_secret_malformed'],
      ['padding missing', `whsec_${b64.replace(/=+$/, '')}`, 'webhook_secret_malformed'],
      ['a trailing newline', `${secret}\n`, 'webhook_secret_malformed'],
      ['a space inside', `whsec_${b64.slice(0, 20)} ${b64.slice(20)}`, 'webhook_secret_malformed'],
      ['stray low bits before the padding (not canonical)', `whsec_${b64.slice(0, 42)}${String.fromCharCode(b64.charCodeAt(42) + 1)}=`, 'webhook_secret_malformed'],
      ['16 bytes', `whsec_${Buffer.alloc(16, 7).toString('base64')}`, 'webhook_secret_malformed'],
      ['31 bytes', `whsec_${Buffer.alloc(31, 7).toString('base64')}`, 'webhook_secret_malformed'],
      ['33 bytes', `whsec_${Buffer.alloc(33, 7).toString('base64')}`, 'webhook_secret_malformed'],
      ['64 bytes', `whsec_${Buffer.alloc(64, 7).toString('base64')}`, 'webhook_secret_malformed'],
    ];
    for (const [what, bad, code] of cases) {
      // A correctly signed delivery, a forged one and one without headers: the secret is refused before any of them is read.
      for (const [payload, hdrs] of [
        [body, headers],
        [body.replace('ord_2', 'ord_3'), headers],
        [body, {}],
      ] as const) {
        let thrown: unknown;
        try {
          verifyWebhook(payload, hdrs, bad as string);
        } catch (err) {
          thrown = err;
        }
        expect(thrown, what).toBeInstanceOf(ConfigurationError);
        expect(thrown, what).toBeInstanceOf(Error);
        expect(thrown, what).not.toBeInstanceOf(WebhookVerificationError);
        const err = thrown as ConfigurationError;
        expect(err.code, what).toBe(code);
        expect(err.name, what).toBe('ConfigurationError');
        expect(err.message, what).not.toContain(b64.slice(6, 30)); // never repeats the secret
      }
    }

    // The valid secret still verifies, and still refuses a forgery as a verification failure.
    expect(verifyWebhook(body, headers, secret)).toMatchObject({ id: 'evt_2', type: 'order.created' });
    expect(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret).id).toBe('evt_2');
    expect(() => verifyWebhook(body.replace('ord_2', 'ord_3'), headers, secret)).toThrow(WebhookVerificationError);
  });
});
