import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatedRequest {
  method: string;
  path: string;
}

export interface GatedProxy {
  /** Point a connection here instead of at the target. */
  url: string;
  /** Requests waiting at the gate now, in arrival order. */
  held: GatedRequest[];
  /** From now on, requests `match` accepts wait at the gate (they have not reached the target) until release(). */
  hold(match: (req: GatedRequest) => boolean): void;
  /** Stops holding and lets every waiting request through to the target, in arrival order. */
  release(): void;
  close(): Promise<void>;
}

/**
 * A local HTTP proxy in front of `target` that can hold chosen requests until the test lets them through:
 * "the request reaches the pharmacy only after X" as an ordering the test controls, instead of a delay that
 * a slow machine can outrun. Method, path, headers (signatures included) and body are passed on unchanged.
 */
export async function startGatedProxy(target: string): Promise<GatedProxy> {
  const to = new URL(target);
  let match: ((req: GatedRequest) => boolean) | null = null;
  let waiting: { req: GatedRequest; go: () => void }[] = [];

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const seen = { method: req.method ?? 'GET', path: req.url ?? '/' };
    if (match?.(seen)) {
      await new Promise<void>((go) => {
        waiting.push({ req: seen, go });
        proxy.held.push(seen);
      });
    }
    const headers = { ...req.headers, host: to.host };
    const out = http.request({ hostname: to.hostname, port: to.port, method: seen.method, path: seen.path, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end('gated proxy: target unreachable')));
    out.end(Buffer.concat(chunks));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));

  const proxy: GatedProxy = {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    held: [],
    hold(m) {
      match = m;
    },
    release() {
      match = null;
      const go = waiting;
      waiting = [];
      proxy.held = [];
      for (const w of go) w.go();
    },
    close() {
      proxy.release();
      return new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      });
    },
  };
  return proxy;
}
