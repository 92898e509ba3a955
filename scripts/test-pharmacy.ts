/**
 * A pharmacy that speaks the `http` adapter's protocol, for tests and for trying the adapter by hand
 * (`npx tsx scripts/test-pharmacy.ts <whsec_secret> [port]`). It verifies every request's Standard
 * Webhooks signature, keeps orders by Idempotency-Key and serves a price list.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export interface TestPharmacyOrder {
  externalId: string;
  status: 'received' | 'accepted' | 'rejected' | 'shipped' | 'delivered' | 'cancelled';
  reasonCode: string | null;
  tracking: { carrier: string; number: string; url: string | null } | null;
  estimatedDelivery: string | null;
  body: unknown;
}

export interface TestPharmacy {
  url: string;
  /** The connection's secret, set once the connection exists. */
  secret: string;
  catalog: { sku: string; itemCode: string; priceCents: number; stock: number; etaDays: number }[];
  orders: Map<string, TestPharmacyOrder>;
  /** Every request, verified or not, in arrival order. */
  requests: { method: string; path: string; verified: boolean; idempotencyKey: string | null }[];
  /** Set to make the next answers slow (ms) or failing (HTTP status). */
  delayMs: number;
  failWith: number | null;
  close(): Promise<void>;
}

const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

export async function startTestPharmacy(opts: { secret?: string; port?: number } = {}): Promise<TestPharmacy> {
  const pharmacy: TestPharmacy = { url: '', secret: opts.secret ?? '', catalog: [], orders: new Map(), requests: [], delayMs: 0, failWith: null, close: async () => undefined };
  let next = 1;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    // Served at the root and under /api, so tests can prove the adapter keeps the base URL's path.
    const fullPath = new URL(req.url ?? '/', 'http://x').pathname;
    const path = fullPath.replace(/^\/api(?=\/)/, '');
    const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
    let verified = false;
    try {
      new Webhook(pharmacy.secret).verify(raw, req.headers as Record<string, string>);
      verified = true;
    } catch (err) {
      // The library parses the body after checking the signature: a signed empty body (a GET) is verified.
      verified = !(err instanceof WebhookVerificationError);
    }
    pharmacy.requests.push({ method: req.method ?? '', path: fullPath, verified, idempotencyKey: key });
    if (pharmacy.delayMs) await new Promise((r) => setTimeout(r, pharmacy.delayMs));
    if (!verified) return json(res, 401, { error: 'bad signature' });
    if (pharmacy.failWith) return json(res, pharmacy.failWith, { error: 'scripted failure' });

    if (req.method === 'GET' && path === '/catalog') return json(res, 200, { items: pharmacy.catalog });
    if (req.method === 'POST' && path === '/orders') {
      if (!key) return json(res, 400, { error: 'Idempotency-Key required' });
      if (!pharmacy.orders.has(key)) {
        pharmacy.orders.set(key, { externalId: `tp_${next++}`, status: 'received', reasonCode: null, tracking: null, estimatedDelivery: null, body: JSON.parse(raw) });
      }
      return json(res, 201, view(pharmacy.orders.get(key)!));
    }
    const m = /^\/orders\/([^/]+)(\/cancel)?$/.exec(path);
    const order = m ? pharmacy.orders.get(decodeURIComponent(m[1])) : undefined;
    if (!m || !order) return json(res, 404, { error: 'not found' });
    if (req.method === 'GET' && !m[2]) return json(res, 200, view(order));
    if (req.method === 'POST' && m[2]) {
      if (order.status === 'received' || order.status === 'accepted') order.status = 'cancelled';
      return json(res, 200, view(order));
    }
    return json(res, 405, { error: 'method not allowed' });
  });
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r));
  pharmacy.url = `http://localhost:${(server.address() as AddressInfo).port}`;
  pharmacy.close = () => new Promise((r) => server.close(() => r()));
  return pharmacy;
}

const view = ({ body: _body, ...rest }: TestPharmacyOrder) => rest;

if (import.meta.url === `file://${process.argv[1]}`) {
  const [secret, port] = process.argv.slice(2);
  if (!secret) {
    console.error('usage: tsx scripts/test-pharmacy.ts <whsec_secret> [port]');
    process.exit(2);
  }
  startTestPharmacy({ secret, port: port ? Number(port) : 4010 }).then((p) => console.log(`test pharmacy listening on ${p.url}`));
}
