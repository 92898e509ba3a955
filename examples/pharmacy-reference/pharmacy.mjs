// The four operations of the pharmacy protocol (docs/pharmacy-protocol.md), over an in-memory order book.
// A real pharmacy keeps the book in its database, with a unique index on the idempotency key.
import { randomUUID } from 'node:crypto';
import { sendCallback } from './callbacks.mjs';
import { verify } from './signing.mjs';

const MAX_BODY_BYTES = 1024 * 1024;
const KEY_PATTERN = /^.{1,200}$/s;

/** Statuses from which a cancel still stops the order. */
const CANCELLABLE = new Set(['received', 'accepted']);

/** What an order looks like on the wire: the same for create, lookup and cancel. */
const view = (o) => ({ externalId: o.externalId, status: o.status, reasonCode: o.reasonCode, tracking: o.tracking, estimatedDelivery: o.estimatedDelivery });

const answer = (res, status, body) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The few fields this pharmacy needs to fill an order; the full shape is OrderRequest in the OpenAPI document. */
function orderProblem(body) {
  if (!body || typeof body !== 'object') return 'the body is not a JSON object';
  if (!Array.isArray(body.items) || body.items.length === 0) return 'items must be a non-empty array';
  if (body.items.some((i) => typeof i?.sku !== 'string' || !Number.isInteger(i?.quantity) || i.quantity < 1)) return 'every item needs a sku and a quantity';
  if (!body.patient?.address) return 'patient.address is required';
  if (typeof body.callbackUrl !== 'string' || !URL.canParse(body.callbackUrl)) return 'callbackUrl must be a URL';
  if (typeof body.livemode !== 'boolean') return 'livemode must be true or false';
  return null;
}

/**
 * Creates the pharmacy. `catalog` is the price list (rows of sku, itemCode, priceCents, stock, etaDays);
 * `send` is how callbacks leave (fetch); `log` receives one line per event.
 */
export function createPharmacy({ secret, catalog, send = fetch, log = () => {} }) {
  /** The order book, by Fulfillment Rail's Idempotency-Key. */
  const orders = new Map();

  function move(order, status, reasonCode = null) {
    order.status = status;
    order.reasonCode = reasonCode;
    sendCallback({ secret, order, send, log });
  }

  /** What happens to a new order: refused at once when an item is unknown or out of stock, else accepted shortly after. */
  function receive(key, body) {
    const order = {
      idempotencyKey: key,
      externalId: `ref_${randomUUID()}`,
      status: 'received',
      reasonCode: null,
      tracking: null,
      estimatedDelivery: null,
      callbackUrl: body.callbackUrl,
      livemode: body.livemode,
    };
    const rows = body.items.map((i) => catalog.find((c) => c.sku === i.sku));
    if (rows.some((r) => !r)) Object.assign(order, { status: 'rejected', reasonCode: 'item_not_carried' });
    else if (rows.some((r, n) => r.stock < body.items[n].quantity)) Object.assign(order, { status: 'rejected', reasonCode: 'out_of_stock' });
    else {
      const days = Math.max(...rows.map((r) => r.etaDays));
      order.estimatedDelivery = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
      // A pharmacist's check would happen here; this one accepts at once. Test orders (livemode false) go no
      // further than accepted: a real pharmacy must never fill them.
      setImmediate(() => {
        if (order.status === 'received') move(order, 'accepted');
      });
    }
    orders.set(key, order);
    log(`order ${order.externalId} (${body.livemode ? 'live' : 'test'}) ${order.status}${order.reasonCode ? ` ${order.reasonCode}` : ''}`);
    return order;
  }

  return async function handle(req, res) {
    const raw = await readBody(req);
    if (raw === null) return answer(res, 413, { error: 'body too large' });
    // Verify before anything else, over the raw bytes: parsing first could accept a body that was altered.
    if (!verify(secret, req.headers, raw)) return answer(res, 401, { error: 'signature does not verify' });

    const path = new URL(req.url ?? '/', 'http://pharmacy').pathname.replace(/\/+$/, '');
    const key = req.headers['idempotency-key'];

    if (path === '/catalog') return req.method === 'GET' ? answer(res, 200, { items: catalog }) : answer(res, 405, { error: 'GET only' });

    if (path === '/orders') {
      if (req.method !== 'POST') return answer(res, 405, { error: 'POST only' });
      if (typeof key !== 'string' || !KEY_PATTERN.test(key)) return answer(res, 400, { error: 'Idempotency-Key is required' });
      // A key seen before names the same order, whatever this body says: answer it, create nothing.
      const known = orders.get(key);
      if (known) return answer(res, 200, view(known));
      let body;
      try {
        body = JSON.parse(raw);
      } catch {
        return answer(res, 400, { error: 'the body is not JSON' });
      }
      const problem = orderProblem(body);
      if (problem) return answer(res, 400, { error: problem });
      // No await between the check above and this insert, so two concurrent requests with one key make one order.
      return answer(res, 201, view(receive(key, body)));
    }

    const match = /^\/orders\/([^/]+)(\/cancel)?$/.exec(path);
    if (!match) return answer(res, 404, { error: 'no such route' });
    const order = orders.get(decodeURIComponent(match[1]));
    if (!order) return answer(res, 404, { error: 'no order with this key' });
    if (!match[2]) return req.method === 'GET' ? answer(res, 200, view(order)) : answer(res, 405, { error: 'GET only' });
    if (req.method !== 'POST') return answer(res, 405, { error: 'POST only' });
    // A shipped order cannot be called back: the answer says so by its status.
    if (CANCELLABLE.has(order.status)) move(order, 'cancelled');
    return answer(res, 200, view(order));
  };
}
