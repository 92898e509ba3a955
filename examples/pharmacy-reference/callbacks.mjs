// Status callbacks: every status change after the create's own answer goes, signed, to the order's callbackUrl.
import { signedHeaders } from './signing.mjs';

/** Retry a callback that was not answered 2xx: after 1, 2, 4, 8, 16 seconds (Fulfillment Rail also polls you). */
const RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];
/** Never wait longer than this for Fulfillment Rail to answer a callback. */
const TIMEOUT_MS = 10_000;

/**
 * Sends one callback, retrying in the background. The webhook-id stays the same across retries of one callback,
 * so a receiver can tell a retry from a new one. `send` is fetch (replaceable in your own tests).
 */
export function sendCallback({ secret, order, send = fetch, log = () => {} }) {
  const body = JSON.stringify({
    idempotencyKey: order.idempotencyKey,
    status: order.status,
    reasonCode: order.reasonCode,
    tracking: order.tracking,
    estimatedDelivery: order.estimatedDelivery,
  });
  const id = `cb_${order.externalId}_${order.status}`;
  const attempt = async (n) => {
    let status = 0;
    try {
      const res = await send(order.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signedHeaders(secret, body, id) },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      status = res.status;
      await res.arrayBuffer();
    } catch {
      status = 0;
    }
    // 400 and 401 mean this callback itself is wrong: sending it again unchanged cannot help.
    if ((status >= 200 && status < 300) || status === 400 || status === 401 || n >= RETRY_DELAYS_MS.length) {
      log(`callback ${order.status} for ${order.externalId}: ${status || 'no answer'}`);
      return;
    }
    setTimeout(() => void attempt(n + 1), RETRY_DELAYS_MS[n]).unref();
  };
  void attempt(0);
}
