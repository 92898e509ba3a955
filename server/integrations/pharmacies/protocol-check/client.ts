import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Exchange, RunState } from './types';

/** How the checker signs a request: correctly, not at all, with another secret, or with an old timestamp. */
export type Signing = 'valid' | 'none' | 'wrong_secret' | 'stale';

const STALE_MS = 10 * 60 * 1000;

const someOtherSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * Sends one request as the `http` adapter does (same headers, same signing, same webhook-id scheme) and records
 * the exchange. Never throws: no answer within the time limit is an exchange with a null status.
 */
export async function send(
  state: RunState,
  label: string,
  method: 'GET' | 'POST',
  path: string,
  opts: { body?: unknown; key?: string; signing?: Signing } = {},
): Promise<Exchange> {
  const { baseUrl, secret, fetch, timeLimitMs } = state.options;
  const url = new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  const payload = opts.body === undefined ? '' : JSON.stringify(opts.body);
  const signing = opts.signing ?? 'valid';
  const messageId = opts.key ? `${opts.key}:${method}:${path}` : `msg_${randomUUID()}`;
  const at = new Date(Date.now() - (signing === 'stale' ? STALE_MS : 0));
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'FulfillmentRail-ProtocolCheck/1' };
  if (signing !== 'none') {
    headers['webhook-id'] = messageId;
    headers['webhook-timestamp'] = String(Math.floor(at.getTime() / 1000));
    headers['webhook-signature'] = new Webhook(signing === 'wrong_secret' ? someOtherSecret() : secret).sign(messageId, at, payload);
  }
  if (payload) headers['content-type'] = 'application/json';
  if (opts.key) headers['idempotency-key'] = opts.key;

  const started = performance.now();
  const exchange: Exchange = { label, status: null, text: '', json: undefined, ms: 0, error: null };
  try {
    const res = await fetch(url, { method, headers, body: payload || undefined, signal: AbortSignal.timeout(waitAtMost(state, timeLimitMs)) });
    exchange.status = res.status;
    exchange.text = res.text;
    try {
      exchange.json = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      exchange.json = undefined;
    }
  } catch (err) {
    const e = err as Error;
    exchange.error = e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${timeLimitMs} ms` : `no answer (${e.message})`;
  }
  exchange.ms = Math.round(performance.now() - started);
  state.exchanges.push(exchange);
  return exchange;
}

/** `ms`, cut to what is left of the run's budget (never below 1 ms), so a run ends when its budget says. */
export function waitAtMost(state: RunState, ms: number): number {
  const { budgetMs } = state.options;
  return budgetMs === undefined ? ms : Math.max(1, Math.min(ms, budgetMs - (Date.now() - state.startedAt)));
}

/** How an exchange reads in a check's "seen": `HTTP 201` or why there was none. */
export const answered = (x: Exchange) => (x.status === null ? (x.error ?? 'no answer') : `HTTP ${x.status}`);

/** The first problem zod found, as `field: message`, for a "seen" line. */
export function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  return `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`;
}
