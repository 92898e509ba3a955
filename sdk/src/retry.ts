import { ConnectionError } from './errors.js';

export interface RetryOptions {
  /** Retries after the first attempt (Stripe's `maxNetworkRetries`); 0 turns retrying off. Default 2. */
  maxRetries: number;
  /** First backoff; each retry doubles it, up to `maxDelayMs`. Defaults 500 ms and 8 s. */
  initialDelayMs: number;
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the 429 or 503 is thrown instead. Default 60 s. */
  maxRetryAfterMs: number;
  /** Per attempt; a timed-out attempt counts as a network error. Default 60 s. */
  timeoutMs: number;
  /** Injected by tests. */
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  newIdempotencyKey: () => string;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
  timeoutMs: 60_000,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  newIdempotencyKey: () => crypto.randomUUID(),
};

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Idempotent requests only are retried: reads (GET, HEAD), and mutations carrying an `Idempotency-Key`, which the
 * SDK adds to every mutation (the caller's own key is kept). The server answers a retry with the first attempt's
 * result (header `Idempotent-Replayed: true`), so a retried create never creates twice.
 */
export function isRetriable(request: Request): boolean {
  const method = request.method.toUpperCase();
  return method === 'GET' || method === 'HEAD' || (MUTATIONS.has(method) && request.headers.has('idempotency-key'));
}

/** Exponential backoff with jitter: attempt n waits between half and all of `initial · 2^n`, capped. */
export function backoffMs(retry: number, opts: Pick<RetryOptions, 'initialDelayMs' | 'maxDelayMs' | 'random'>): number {
  const ceiling = Math.min(opts.maxDelayMs, opts.initialDelayMs * 2 ** retry);
  return Math.round(ceiling * (0.5 + opts.random() / 2));
}

/** `Retry-After` in seconds or as an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, nowMs = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** 429, 5xx, and the 409 a concurrent twin of the same Idempotency-Key gets while the first is still running. */
async function shouldRetryStatus(res: Response): Promise<boolean> {
  if (res.status === 429 || res.status >= 500) return true;
  if (res.status !== 409) return false;
  const body = (await res.clone().json().catch(() => null)) as { error?: { code?: string } } | null;
  return body?.error?.code === 'idempotency_key_in_use';
}

/**
 * A fetch for openapi-fetch that adds the Idempotency-Key to mutations and retries idempotent requests on
 * network errors, 429 (after `Retry-After`) and 5xx, with the same key each time.
 */
export function retryingFetch(base: typeof fetch, opts: RetryOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    if (MUTATIONS.has(request.method.toUpperCase()) && !request.headers.has('idempotency-key')) {
      request.headers.set('Idempotency-Key', opts.newIdempotencyKey());
    }
    const retries = isRetriable(request) ? opts.maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= retries;
      // The original stays unread so that every attempt sends the same body.
      const sent = last ? request : request.clone();
      const signal = request.signal ? AbortSignal.any([request.signal, AbortSignal.timeout(opts.timeoutMs)]) : AbortSignal.timeout(opts.timeoutMs);
      let res: Response;
      try {
        res = await base(new Request(sent, { signal }));
      } catch (err) {
        // The caller's own abort is an answer, not a failure to retry.
        if (request.signal?.aborted) throw err;
        if (last) throw new ConnectionError(`Could not reach ${new URL(request.url).origin} (${describe(err)}) after ${attempt + 1} attempt(s).`, err);
        await opts.sleep(backoffMs(attempt, opts));
        continue;
      }
      if (last || !(await shouldRetryStatus(res))) return res;
      const after = retryAfterMs(res.headers.get('retry-after'));
      if (after !== null && after > opts.maxRetryAfterMs) return res;
      await res.body?.cancel().catch(() => undefined);
      await opts.sleep(Math.max(after ?? 0, backoffMs(attempt, opts)));
    }
  };
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string } };
  if (e?.name === 'TimeoutError') return 'timed out';
  return e?.cause?.code ?? e?.message ?? String(err);
}
