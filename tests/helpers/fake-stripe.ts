import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, randomBytes } from 'node:crypto';
import { now } from '@/server/lib/clock';

/** A request the fake received: the form body (or query) decoded into nested objects as Stripe reads them. */
export interface FakeStripeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  authorization?: string;
}

export interface FakeStripe {
  /** The base for STRIPE_API_URL. */
  url: string;
  requests: FakeStripeRequest[];
  /** Active promotion codes by code (Stripe matches codes case-insensitively). */
  promotionCodes: Map<string, { id: string; active: boolean }>;
  /** Subscriptions GET /v1/subscriptions/:id answers with (a test puts the object the events describe). */
  subscriptions: Map<string, Record<string, unknown>>;
  /** Requests to `path` (e.g. '/v1/checkout/sessions'), oldest first. */
  seen(path: string): FakeStripeRequest[];
  close(): Promise<void>;
}

const fakeId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

/**
 * Decodes Stripe's form encoding (`metadata[plan]=x&line_items[0][price]=y`) into nested objects and arrays,
 * the way the API reads what the SDK sends.
 */
export function decodeStripeForm(encoded: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const [head, ...rest] = key.split('[');
    const path = [head, ...rest.map((p) => p.replace(/\]$/, ''))];
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const slot = node as Record<string, unknown>;
      if (last) slot[segment] = value;
      else node = (slot[segment] ??= /^\d+$/.test(path[i + 1]) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

const stripeError = (status: number, message: string, param?: string) => ({ status, body: { error: { type: 'invalid_request_error', message, param } } });

/** A local server answering the few Stripe endpoints the payments provider uses, shaped like the real API. */
export async function startFakeStripe(): Promise<FakeStripe> {
  const fake: FakeStripe = {
    url: '',
    requests: [],
    promotionCodes: new Map(),
    subscriptions: new Map(),
    seen: (path) => fake.requests.filter((r) => r.path === path),
    close: async () => undefined,
  };

  function answer(method: string, path: string, params: Record<string, unknown>): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/customers') {
      return { status: 200, body: { id: fakeId('cus'), object: 'customer', livemode: false, metadata: params.metadata ?? {} } };
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const id = fakeId('cs_test');
      return {
        status: 200,
        body: { id, object: 'checkout.session', livemode: false, mode: params.mode, customer: params.customer ?? null, metadata: params.metadata ?? {}, url: `${fake.url}/c/pay/${id}` },
      };
    }
    if (method === 'GET' && path === '/v1/promotion_codes') {
      const found = [...fake.promotionCodes].find(([code, p]) => code.toLowerCase() === String(params.code ?? '').toLowerCase() && (params.active !== 'true' || p.active));
      const data = found ? [{ id: found[1].id, object: 'promotion_code', code: found[0], active: found[1].active }] : [];
      return { status: 200, body: { object: 'list', url: path, has_more: false, data } };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (!params.customer) return stripeError(400, 'Missing required param: customer.', 'customer');
      const id = fakeId('bps');
      return { status: 200, body: { id, object: 'billing_portal.session', customer: params.customer, return_url: params.return_url, url: `${fake.url}/p/session/${id}` } };
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sub) {
      const found = fake.subscriptions.get(decodeURIComponent(sub[1]));
      return found ? { status: 200, body: found } : stripeError(404, `No such subscription: '${sub[1]}'`, 'id');
    }
    return stripeError(404, `Unrecognized request URL (${method}: ${path}).`);
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const params = decodeStripeForm(req.method === 'GET' ? url.search.slice(1) : raw);
      fake.requests.push({ method: req.method ?? '', path: url.pathname, params, authorization: req.headers.authorization });
      const { status, body } = answer(req.method ?? '', url.pathname, params);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': fakeId('req') }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/**
 * The Stripe-Signature header Stripe sends: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<payload>">`,
 * keyed by the endpoint's whole signing secret (whsec_… included, as its UTF-8 bytes). The time is the app's
 * clock, so a test that moves it still signs within the five-minute tolerance.
 */
export function signStripeWebhook(payload: string, secret: string, timestamp = Math.floor(now().getTime() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** A Stripe event envelope around `object`, as delivered to a webhook endpoint (JSON text, ready to sign). */
export function stripeEventPayload(type: string, object: Record<string, unknown>, id = fakeId('evt')): string {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(now().getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
}
