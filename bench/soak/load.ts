import { createParser } from 'eventsource-parser';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonInit, onCleanup } from '../lib';

/**
 * The soak's clients. Every call goes to one of the two web processes in turn; a refused connection, a cut
 * response or a 5xx is retried on the other one with the same Idempotency-Key (what a client behind a balancer
 * does), so an acknowledged write is one the client was told about, whichever process told it.
 */
export interface Tally {
  /** 5xx answers and network failures by cause (`route status code` / `route network`), with the fault active then. */
  failures: Map<string, number>;
  requests: number;
}

export const tally: Tally = { failures: new Map(), requests: 0 };
export const fault = { now: 'none' };
const count = (cause: string) => tally.failures.set(`${cause} [during: ${fault.now}]`, (tally.failures.get(`${cause} [during: ${fault.now}]`) ?? 0) + 1);

export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

let turn = 0;
/** A process to send the next request to (round-robin over those given). */
export const pick = (bases: string[]) => bases[turn++ % bases.length];

/** One request with retries across `bases` on a network error or a 5xx; the last answer (or error) wins. */
export async function call(
  bases: string[],
  route: string,
  method: string,
  path: string,
  opts: { bearer?: string; body?: unknown; headers?: Record<string, string>; attempts?: number } = {},
): Promise<Answer> {
  const attempts = opts.attempts ?? 40;
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    const base = pick(bases);
    tally.requests++;
    try {
      const res = await fetch(base + path, { ...jsonInit(method, opts), signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      if (res.status < 500) return { status: res.status, body };
      count(`${route} ${res.status} ${(body.error as { code?: string } | undefined)?.code ?? ''}`.trim());
      last = new Error(`${route}: ${res.status} ${text.slice(0, 200)}`);
    } catch (err) {
      count(`${route} network (${(err as Error & { cause?: { code?: string } }).cause?.code ?? (err as Error).name})`);
      last = err;
    }
    await new Promise((r) => setTimeout(r, Math.min(250 * (i + 1), 2000)));
  }
  throw last instanceof Error ? last : new Error(String(last));
}

// -------------------------------------------------------------------------------------------------------
// Webhook receiver

export interface Receipt {
  eventId: string;
  at: number;
}

/** A local endpoint that answers 2xx to most deliveries and 500 to a share of them (SOAK_WEBHOOK_FAIL, 0.1). */
export async function startReceiver() {
  const failShare = Number(process.env.SOAK_WEBHOOK_FAIL ?? 0.1);
  const receipts: Receipt[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      if (Math.random() < failShare) {
        res.statusCode = 500;
        return res.end();
      }
      try {
        receipts.push({ eventId: (JSON.parse(raw) as { id: string }).id, at: Date.now() });
      } catch {
        // not an event: ignored
      }
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  onCleanup(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://localhost:${(server.address() as AddressInfo).port}/hook`, receipts };
}

// -------------------------------------------------------------------------------------------------------
// Event stream consumers

export interface Consumer {
  name: string;
  ids: string[];
  resumes: number;
  /** Resumes that went to the other process than the one that dropped. */
  crossResumes: number;
  stop(): void;
  /** Drops the stream (a client-side network blip): it resumes on the other process. */
  hop(): void;
}

/**
 * Reads the event stream from process `first`; whenever it ends (a kill, a drain, a network error) it opens it
 * again on the other process with Last-Event-ID, as EventSource would behind a balancer.
 */
export function startConsumer(name: string, bases: string[], first: number, key: string): Consumer {
  const c: Consumer = { name, ids: [], resumes: 0, crossResumes: 0, stop: () => undefined, hop: () => undefined };
  let stopped = false;
  let abort = new AbortController();
  c.stop = () => {
    stopped = true;
    abort.abort();
  };
  c.hop = () => abort.abort();
  let at = first;
  void (async () => {
    let opened = false;
    while (!stopped) {
      const last = c.ids.at(-1);
      try {
        abort = new AbortController();
        const res = await fetch(`${bases[at]}/v1/developer/events/stream`, {
          headers: { authorization: `Bearer ${key}`, ...(last ? { 'last-event-id': last } : {}) },
          signal: abort.signal,
        });
        if (res.status === 200 && res.body) {
          if (opened) c.resumes++;
          opened = true;
          const parser = createParser({ onEvent: (e) => void (e.id && c.ids.push(e.id)) });
          const decoder = new TextDecoder();
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
        } else {
          await res.body?.cancel();
        }
      } catch {
        // dropped: resume below
      }
      if (stopped) break;
      // To the other process: the one that dropped the stream may be gone.
      at = (at + 1) % bases.length;
      if (opened) c.crossResumes++;
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return c;
}

// -------------------------------------------------------------------------------------------------------
// Rate limit probe

export interface RateProbe {
  seconds: number;
  /** From the first request sent to the last answer: more than `seconds` when the processes fell behind. */
  spanSeconds: number;
  offeredPerSec: number;
  /** 2xx per process (by base URL). */
  accepted: Record<string, number>;
  refused: number;
  other: number;
  /** What the other answers were (status, or the network error), by count. */
  otherCauses: Record<string, number>;
}

/**
 * `offeredPerSec` requests a second, spread evenly over both processes, for `seconds`, with one live key:
 * counts the answers that got through (2xx) per process and the refusals (429).
 */
export async function probeRate(bases: string[], key: string, seconds: number, offeredPerSec: number): Promise<RateProbe> {
  const p: RateProbe = { seconds, spanSeconds: seconds, offeredPerSec, accepted: Object.fromEntries(bases.map((b) => [b, 0])), refused: 0, other: 0, otherCauses: {} };
  const other = (cause: string) => {
    p.other++;
    p.otherCauses[cause] = (p.otherCauses[cause] ?? 0) + 1;
  };
  const total = Math.round(seconds * offeredPerSec);
  const started = performance.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / offeredPerSec;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const base = bases[i % bases.length];
    sent.push(
      fetch(`${base}/v1/orders?limit=1`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) })
        .then(async (res) => {
          await res.arrayBuffer();
          if (res.status === 200) p.accepted[base]++;
          else if (res.status === 429) p.refused++;
          else other(String(res.status));
        })
        .catch((err: Error) => other(err.name === 'TimeoutError' ? 'timeout' : err.name)),
    );
  }
  await Promise.all(sent);
  p.spanSeconds = (performance.now() - started) / 1000;
  return p;
}

export const newKey = () => randomUUID();
