import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/*
 * Planted faults for the protocol checker (issue 54): a proxy in front of the reference pharmacy
 * (examples/pharmacy-reference) that breaks exactly one rule of the contract, so the reference itself stays the
 * clean code a pharmacy's engineers read. Callbacks are bent on their way out: the proxy points each order's
 * callbackUrl at itself and forwards what the reference sends.
 */
export type Fault =
  /** Callbacks signed over the body alone (a common mistake), so they never verify. */
  | 'bad-signature'
  /** Callbacks without Standard Webhooks headers. */
  | 'unsigned-callback'
  /** Every POST /orders makes a new order, whatever its Idempotency-Key; lookups find the newest. */
  | 'no-dedup'
  /** Answers call a received order `processing`. */
  | 'unknown-status'
  /** Lookups are never answered (the "40 s answer"). */
  | 'slow-lookup'
  /** Requests are not verified: the proxy signs whatever arrives before the reference sees it. */
  | 'accepts-unsigned';

const HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

async function bodyOf(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFaultyPharmacy(upstream: string, secret: string, fault: Fault): Promise<{ url: string; close(): Promise<void> }> {
  let self = '';
  let dedupRound = 0;
  const held: http.ServerResponse[] = [];
  const sign = (body: string) => {
    const id = `msg_proxy_${Math.random().toString(36).slice(2)}`;
    const at = new Date();
    return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new Webhook(secret).sign(id, at, body) };
  };

  async function forwardCallback(req: http.IncomingMessage, res: http.ServerResponse, target: string) {
    const body = await bodyOf(req);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (fault === 'bad-signature') {
      const { createHmac } = await import('node:crypto');
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      Object.assign(headers, sign(body), { 'webhook-signature': `v1,${createHmac('sha256', key).update(body).digest('base64')}` });
    } else if (fault !== 'unsigned-callback') {
      for (const h of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) headers[h] = String(req.headers[h] ?? '');
    }
    const answer = await fetch(target, { method: 'POST', headers, body });
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname === '/__callback') return forwardCallback(req, res, url.searchParams.get('to') ?? '');
    if (fault === 'slow-lookup' && req.method === 'GET' && url.pathname.startsWith('/orders/')) {
      held.push(res);
      return;
    }
    let body = await bodyOf(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && typeof v === 'string') headers[k] = v;
    let path = url.pathname;
    if (req.method === 'POST' && path === '/orders' && body) {
      const order = JSON.parse(body) as { callbackUrl: string };
      order.callbackUrl = `${self}/__callback?to=${encodeURIComponent(order.callbackUrl)}`;
      body = JSON.stringify(order);
      // The body changed, so the proxy signs it anew (same webhook-id and timestamp as the checker's).
      headers['webhook-signature'] = new Webhook(secret).sign(headers['webhook-id'], new Date(Number(headers['webhook-timestamp']) * 1000), body);
      if (fault === 'no-dedup') headers['idempotency-key'] = `${headers['idempotency-key']}~${++dedupRound}`;
    }
    if (fault === 'no-dedup' && /^\/orders\/[^/]+/.test(path) && dedupRound) path = path.replace(/^\/orders\/([^/]+)/, (_, k: string) => `/orders/${k}${encodeURIComponent(`~${dedupRound}`)}`);
    if (fault === 'accepts-unsigned') Object.assign(headers, sign(body));
    const answer = await fetch(`${upstream}${path}`, { method: req.method, headers, body: body || undefined });
    let text = await answer.text();
    if (fault === 'unknown-status') text = text.replace(/"status":"received"/g, '"status":"processing"');
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
