import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { now } from '@/server/lib/clock';
import { parseWebhookUrl } from '@/server/lib/ssrf';
import { agentFor } from '@/server/integrations/net/agent';
import { parseSignedCallback } from './callbacks';
import { ZCatalogFeed, ZOrderState, type OrderRequest } from './protocol/schemas';
import { PROTOCOL_TIMINGS } from './protocol/timings';
import { ZHttpSettings } from './settings';
import { PharmacyUnavailable, type AdapterDeps, type ConnectionForAdapter, type PharmacyAdapter, type PharmacyOrderState } from './types';

const MAX_RESPONSE_BYTES = PROTOCOL_TIMINGS.maxAnswerBytes;

/**
 * DESIGN decision 11's generic pharmacy: JSON over HTTPS. Every request is signed Standard Webhooks-style
 * with the connection's secret and order requests carry `Idempotency-Key`, so a pharmacy can verify us and
 * de-duplicate. Routes: GET /catalog, POST /orders, GET /orders/{key}, POST /orders/{key}/cancel; the bodies are
 * the protocol's (protocol/schemas.ts), published at GET /v1/pharmacy-protocol/openapi.json.
 */
export function httpAdapter({ policy }: AdapterDeps): PharmacyAdapter {
  async function call(conn: ConnectionForAdapter, method: 'GET' | 'POST', path: string, body: unknown, idempotencyKey?: string) {
    const s = ZHttpSettings.parse(conn.settings);
    const url = new URL(path.replace(/^\//, ''), s.baseUrl.endsWith('/') ? s.baseUrl : `${s.baseUrl}/`);
    parseWebhookUrl(url.toString(), policy);
    const payload = body === undefined ? '' : JSON.stringify(body);
    const messageId = idempotencyKey ? `${idempotencyKey}:${method}:${path}` : `msg_${randomUUID()}`;
    const at = now();
    let res;
    try {
      res = await request(url, {
        method,
        dispatcher: agentFor(policy),
        signal: AbortSignal.timeout(s.timeoutMs),
        headers: {
          accept: 'application/json',
          'user-agent': 'FulfillmentRail-Pharmacy/1',
          'webhook-id': messageId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Webhook(conn.secret).sign(messageId, at, payload),
          ...(payload ? { 'content-type': 'application/json' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: payload || undefined,
      });
    } catch (err) {
      const e = err as Error;
      throw new PharmacyUnavailable(e.name === 'TimeoutError' ? `The pharmacy did not answer within ${s.timeoutMs} ms.` : 'The pharmacy could not be reached.');
    }
    const text = await readLimited(res.body);
    if (res.statusCode === 404) return { status: 404, json: null };
    if (res.statusCode < 200 || res.statusCode >= 300) throw new PharmacyUnavailable(`The pharmacy answered HTTP ${res.statusCode}.`);
    try {
      return { status: res.statusCode, json: JSON.parse(text) as unknown };
    } catch {
      throw new PharmacyUnavailable('The pharmacy answered with a body that is not JSON.');
    }
  }

  const toState = (key: string, json: unknown): PharmacyOrderState => {
    const parsed = ZOrderState.safeParse(json);
    if (!parsed.success) throw new PharmacyUnavailable('The pharmacy answered with an order the adapter cannot read.');
    return { idempotencyKey: key, ...parsed.data };
  };
  const orderPath = (key: string) => `orders/${encodeURIComponent(key)}`;

  return {
    name: 'http',
    settingsSchema: ZHttpSettings,

    async submit(conn, order, key) {
      // The orders domain always says where callbacks go (dispatch.ts); an order without it would strand its statuses.
      if (!conn.callbackUrl) throw new Error('An http pharmacy order needs the connection\'s callback URL.');
      const body: OrderRequest = { ...order, callbackUrl: conn.callbackUrl };
      const { status, json } = await call(conn, 'POST', 'orders', body, key);
      if (status === 404) throw new PharmacyUnavailable('The pharmacy answered HTTP 404 for its orders endpoint.');
      return toState(key, json);
    },

    async lookup(conn, key) {
      const { status, json } = await call(conn, 'GET', orderPath(key), undefined);
      return status === 404 ? null : toState(key, json);
    },

    async cancel(conn, key) {
      const { status, json } = await call(conn, 'POST', `${orderPath(key)}/cancel`, {}, key);
      return status === 404 ? null : toState(key, json);
    },

    parseCallback: (conn, req) => parseSignedCallback(conn.secret, req),

    async fetchCatalog(conn) {
      const { status, json } = await call(conn, 'GET', 'catalog', undefined);
      if (status === 404) throw new PharmacyUnavailable('The pharmacy answered HTTP 404 for its catalog.');
      const parsed = ZCatalogFeed.safeParse(json);
      if (!parsed.success) throw new PharmacyUnavailable('The pharmacy answered with a catalog the adapter cannot read.');
      return parsed.data.items;
    },
  };
}

async function readLimited(body: AsyncIterable<Buffer> & { destroy?: () => void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > MAX_RESPONSE_BYTES) {
      body.destroy?.();
      throw new PharmacyUnavailable('The pharmacy answered with a body that is too large.');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
