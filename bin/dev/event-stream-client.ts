import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface StreamOptions {
  baseUrl: string;
  apiKey: string;
  signal: AbortSignal;
  /** Called for each event, in order; the stream reads on once it resolves. */
  onEvent(message: EventSourceMessage): Promise<void>;
  /** Connection news for the operator (connected, dropped, resuming). */
  onNotice(text: string): void;
  fetch?: typeof fetch;
}

/** Refusals that no retry will change: a bad or revoked key, a key without `events.read`. */
export class StreamRefused extends Error {}

const MAX_WAIT_MS = 30_000;

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * Follows GET /v1/developer/events/stream until `signal` aborts, as EventSource would: after a drop it reconnects
 * with `Last-Event-ID` set to the last event handled, so the server resends from there (nothing missed, nothing
 * twice), waiting the server's `retry:` hint, doubled after each failed attempt up to 30 s.
 */
export async function followEventStream(opts: StreamOptions): Promise<void> {
  const fetchImpl = opts.fetch ?? fetch;
  let lastEventId: string | undefined;
  let retryMs = 2_000;
  let failures = 0;
  while (!opts.signal.aborted) {
    let res: Response;
    try {
      res = await fetchImpl(`${opts.baseUrl}/v1/developer/events/stream`, {
        headers: { authorization: `Bearer ${opts.apiKey}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: opts.signal,
      });
    } catch (err) {
      if (opts.signal.aborted) return;
      failures++;
      opts.onNotice(`Cannot reach ${opts.baseUrl} (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message}); retrying`);
      await pause(Math.min(MAX_WAIT_MS, retryMs * 2 ** (failures - 1)), opts.signal);
      continue;
    }
    if (res.status === 401 || res.status === 403 || res.status === 404 || res.status === 400) {
      const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
      throw new StreamRefused(`The event stream refused this key: HTTP ${res.status} ${body?.error?.code ?? ''} ${body?.error?.message ?? ''}`.trim());
    }
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      failures++;
      opts.onNotice(`The event stream answered HTTP ${res.status}; retrying`);
      const after = Number(res.headers.get('retry-after'));
      await pause(Math.min(MAX_WAIT_MS, Math.max(after * 1000 || 0, retryMs * 2 ** (failures - 1))), opts.signal);
      continue;
    }
    failures = 0;
    opts.onNotice(lastEventId ? `Reconnected; resuming after ${lastEventId}` : 'Connected to the event stream');
    const queue: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (m) => void queue.push(m), onRetry: (ms) => void (retryMs = ms) });
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        parser.feed(decoder.decode(chunk, { stream: true }));
        while (queue.length) {
          const message = queue.shift()!;
          await opts.onEvent(message);
          if (message.id) lastEventId = message.id;
        }
      }
    } catch {
      /* a drop (or our own abort): reconnect below unless stopping */
    }
    if (opts.signal.aborted) return;
    opts.onNotice('The event stream closed; reconnecting');
    await pause(retryMs, opts.signal);
  }
}
