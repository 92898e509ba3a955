import type pg from 'pg';
import { logger } from '@/server/lib/logger';

export type Unlisten = () => Promise<void>;
export type ListenFn = (channel: string, onPayload: (payload: string) => void) => Promise<Unlisten>;

const RECONNECT_MS = 1_000;

/**
 * LISTEN on PostgreSQL through one dedicated connection per process: pooled connections are handed back
 * between queries, and a LISTEN on them would silently stop hearing. A dropped connection is re-opened and
 * re-LISTENs; notifications missed meanwhile are covered by the listeners' own polling, and once re-opened every
 * handler hears an empty payload, as for a change it cannot name (caches that forget on NOTIFY forget all).
 */
export function createPgListener(Client: typeof pg.Client, url: string): { listen: ListenFn; close(): Promise<void> } {
  const handlers = new Map<string, Set<(payload: string) => void>>();
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let connectedBefore = false;

  const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;
  // LISTEN and UNLISTEN of different channels may be asked for at once; a client takes one query at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const send = (c: pg.Client, text: string) => {
    const sent = queue.then(() => c.query(text));
    queue = sent.catch(() => undefined);
    return sent;
  };

  async function connect(): Promise<pg.Client> {
    const c = new Client({ connectionString: url });
    c.on('notification', (msg) => handlers.get(msg.channel)?.forEach((fn) => fn(msg.payload ?? '')));
    c.on('error', (err) => {
      logger.warn({ err }, 'LISTEN connection lost; reconnecting');
      if (client === c) client = null;
      c.end().catch(() => undefined);
      if (!closed) setTimeout(() => void ensure().catch(() => undefined), RECONNECT_MS);
    });
    await c.connect();
    for (const channel of handlers.keys()) await send(c, `LISTEN ${quote(channel)}`);
    if (connectedBefore) for (const set of handlers.values()) set.forEach((fn) => fn(''));
    connectedBefore = true;
    return c;
  }

  async function ensure(): Promise<pg.Client> {
    if (client) return client;
    connecting ??= connect().then(
      (c) => ((client = c), (connecting = null), c),
      (err) => {
        connecting = null;
        throw err;
      },
    );
    return connecting;
  }

  return {
    async listen(channel, onPayload) {
      let set = handlers.get(channel);
      const fresh = !set;
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(onPayload);
      const c = await ensure();
      if (fresh) await send(c, `LISTEN ${quote(channel)}`);
      return async () => {
        set.delete(onPayload);
        if (set.size === 0 && handlers.get(channel) === set) {
          handlers.delete(channel);
          if (client) await send(client, `UNLISTEN ${quote(channel)}`).catch(() => undefined);
        }
      };
    },
    async close() {
      closed = true;
      handlers.clear();
      const c = client ?? (await connecting?.catch(() => null));
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
