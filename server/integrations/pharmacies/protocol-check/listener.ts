import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallbackReceiver, ReceivedCallback } from './types';

const MAX_BODY_BYTES = 256 * 1024;
const MAX_CALLBACKS = 50;
const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * A local listener for the test order's callbacks (the CLI's): it keeps every POST to its own unguessable path
 * and answers 200, as Fulfillment Rail's callback endpoint does. `publicUrl` replaces the address in the
 * callback URL when the pharmacy reaches this machine another way (a tunnel).
 */
export async function startCallbackListener(opts: { host?: string; port?: number; publicUrl?: string } = {}): Promise<{ receiver: CallbackReceiver; close(): Promise<void> }> {
  const path = `/callbacks/${randomBytes(12).toString('hex')}`;
  const received: ReceivedCallback[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== path || size > MAX_BODY_BYTES || received.length >= MAX_CALLBACKS) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      const h = req.headers;
      received.push({ headers: { 'webhook-id': header(h['webhook-id']), 'webhook-timestamp': header(h['webhook-timestamp']), 'webhook-signature': header(h['webhook-signature']) }, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = (opts.publicUrl ?? `http://localhost:${port}`).replace(/\/+$/, '');

  const receiver: CallbackReceiver = {
    url: `${base}${path}`,
    waitFor(enough, timeoutMs) {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve([...received]);
        };
        const check = () => {
          if (enough(received)) done();
        };
        const timer = setTimeout(done, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
  return {
    receiver,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
