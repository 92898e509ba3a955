import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, type WebhookEvent } from '@fulfillment-rail/sdk';

/**
 * Your webhook handler: read the raw body, verify its signature, dedupe on the event id (deliveries are at
 * least once), answer 2xx fast, then act. A bad signature gets 400 and is never acted on.
 */
export async function startWebhookServer(opts: { port: number; secret: string; onEvent?: (event: WebhookEvent) => void }) {
  const events: WebhookEvent[] = [];
  const waiters = new Set<() => void>();
  let refused = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let event: WebhookEvent;
    try {
      event = verifyWebhook(Buffer.concat(chunks), req.headers, opts.secret);
    } catch {
      refused++;
      res.writeHead(400).end('bad signature');
      return;
    }
    res.writeHead(200).end('ok');
    if (events.some((e) => e.id === event.id)) return;
    events.push(event);
    opts.onEvent?.(event);
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve) => server.listen(opts.port, resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/webhooks`,
    /** Every verified event so far, once each. */
    events,
    get refused() {
      return refused;
    },
    /** Resolves with the first verified event that `match` accepts, received before or after the call. */
    waitFor(match: (event: WebhookEvent) => boolean): Promise<WebhookEvent> {
      return new Promise((resolve) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
