import { createParser } from 'eventsource-parser';
import { WAIT_MS } from './webhooks';

export interface SseMessage {
  id?: string;
  data?: string;
  comment?: string;
}

/** Opens the event stream with fetch and parses it message by message (EventSource's framing). */
export async function openStream(url: string, key: string, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}`, ...headers }, signal: abort.signal });
  const messages: SseMessage[] = [];
  const waiters: (() => void)[] = [];
  const record = (msg: SseMessage) => {
    messages.push(msg);
    waiters.splice(0).forEach((w) => w());
  };
  const pump = (async () => {
    if (!res.body || res.status !== 200) return;
    const decoder = new TextDecoder();
    const parser = createParser({
      onEvent: (e) => record({ ...(e.id ? { id: e.id } : {}), data: e.data }),
      onComment: (comment) => record({ comment: comment.trim() }),
    });
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
    } catch {
      /* aborted */
    }
  })();
  return {
    res,
    messages,
    events: () => messages.filter((m) => m.data !== undefined).map((m) => ({ id: m.id, ...JSON.parse(m.data!) })),
    /** Waits until `pred` holds over the messages so far, failing after `timeoutMs` with what it waited for and what came. */
    async waitFor(pred: (m: SseMessage[]) => boolean, { what, timeoutMs = WAIT_MS }: { what?: string; timeoutMs?: number } = {}) {
      const until = performance.now() + timeoutMs;
      while (!pred(messages)) {
        if (performance.now() > until) {
          throw new Error(`timed out after ${timeoutMs / 1000} s waiting on the stream for ${what ?? String(pred).slice(0, 200)}; got ${JSON.stringify(messages)}`);
        }
        await new Promise<void>((ok) => {
          waiters.push(ok);
          setTimeout(ok, 50);
        });
      }
    },
    async close() {
      abort.abort();
      await pump;
    },
  };
}
