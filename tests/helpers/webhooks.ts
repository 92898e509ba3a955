import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Scope } from '@/server/db/scoped';
import type { EventData, EventType } from '@/server/domain/events/catalog';
import { emitEvent } from '@/server/domain/events/emit';
import { newId } from '@/server/lib/ids';
import type { TestApp } from './harness';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  path: string;
  at: number;
}

export type Responder = (req: Received, n: number) => { status?: number; headers?: Record<string, string>; delayMs?: number; body?: string } | void;

/** A local webhook receiver recording every request; `respond` decides each answer (default 200). */
export async function startReceiver(respond: Responder = () => undefined) {
  const received: Received[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '/', at: Date.now() };
      received.push(r);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const answer = receiver.respond(r, received.length) ?? {};
      if (answer.delayMs) await new Promise((ok) => setTimeout(ok, answer.delayMs));
      inFlight--;
      res.writeHead(answer.status ?? 200, answer.headers ?? {});
      res.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((ok) => server.listen(0, ok));
  const port = (server.address() as AddressInfo).port;
  const receiver = {
    url: `http://localhost:${port}`,
    port,
    received,
    respond,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
  return receiver;
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Emits through the domain inside a transaction, as a feature's state change will. */
export function emit<T extends EventType>(app: TestApp, scope: Scope, type: T, data: EventData<T>) {
  return app.services.database.db.transaction((tx) => emitEvent(tx, scope, type, data));
}

export const orderData = (status: 'submitted' | 'accepted' = 'submitted') => ({
  orderId: newId('order'),
  pharmacyConnectionId: newId('pharmacyConnection'),
  status,
});

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

export async function waitFor<T>(probe: () => T | Promise<T>, { timeoutMs = 10_000, what = 'condition' } = {}): Promise<Truthy<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((ok) => setTimeout(ok, 25));
  }
}
