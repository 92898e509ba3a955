import { Webhook } from 'standardwebhooks';
import { request } from 'undici';
import { agentFor } from '@/server/integrations/net/agent';
import { now } from '@/server/lib/clock';
import { parseWebhookUrl, UrlRejected, type UrlPolicy } from '@/server/lib/ssrf';
import { parseRetryAfter } from './retry';

export interface SendInput {
  url: string;
  /** An endpoint's `whsec_` secret, or raw key bytes (a flow's checkout key); null sends it unsigned. */
  secret: string | Uint8Array | null;
  /** The event id: the `webhook-id` a receiver dedupes on, the same for every retry and replay. */
  eventId: string;
  body: string;
  userAgent?: string;
}

export interface SendResult {
  ok: boolean;
  responseCode: number | null;
  /** Why the attempt failed, in words that hold no response body (receivers may echo anything). */
  error: string | null;
  retryAfterMs: number | null;
  gone: boolean;
}

/**
 * The headers of a delivery, signed per Standard Webhooks (DESIGN decision 5): also what `npm run cli -- listen`
 * forwards with, so a local receiver sees exactly what a registered endpoint does.
 */
export function signedHeaders(input: Omit<SendInput, 'url'>, at: Date): Record<string, string> {
  const signer = input.secret === null ? null : typeof input.secret === 'string' ? new Webhook(input.secret) : new Webhook(input.secret, { format: 'raw' });
  return {
    'content-type': 'application/json',
    'user-agent': input.userAgent ?? 'FulfillmentRail-Webhooks/1',
    'webhook-id': input.eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    ...(signer ? { 'webhook-signature': signer.sign(input.eventId, at, input.body) } : {}),
  };
}

/** Signs per Standard Webhooks (DESIGN decision 5) and POSTs once; redirects are never followed. */
export async function sendSigned(input: SendInput, opts: { timeoutMs: number; policy: UrlPolicy }): Promise<SendResult> {
  const failed = (error: string, responseCode: number | null = null): SendResult => ({ ok: false, responseCode, error, retryAfterMs: null, gone: false });
  try {
    parseWebhookUrl(input.url, opts.policy);
  } catch (err) {
    return failed(err instanceof UrlRejected ? err.message : 'The URL is not valid.');
  }
  const at = now();
  try {
    const res = await request(input.url, {
      method: 'POST',
      dispatcher: agentFor(opts.policy),
      signal: AbortSignal.timeout(opts.timeoutMs),
      headers: signedHeaders(input, at),
      body: input.body,
    });
    await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const code = res.statusCode;
    if (code >= 200 && code < 300) return { ok: true, responseCode: code, error: null, retryAfterMs: null, gone: false };
    const result = failed(code >= 300 && code < 400 ? `HTTP ${code} (redirects are not followed)` : `HTTP ${code}`, code);
    return { ...result, gone: code === 410, retryAfterMs: parseRetryAfter(res.headers['retry-after'], at) };
  } catch (err) {
    return failed(describeNetworkError(err, opts.timeoutMs));
  }
}

function describeNetworkError(err: unknown, timeoutMs: number): string {
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException };
  const code = e?.code ?? e?.cause?.code;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || code === 'UND_ERR_HEADERS_TIMEOUT') return `Timed out after ${timeoutMs / 1000} s`;
  if (e instanceof UrlRejected || e?.cause instanceof UrlRejected || code === 'EFORBIDDENHOST') {
    return 'The host resolves to a private, loopback, link-local, reserved or metadata address.';
  }
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'DNS lookup failed';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'Connection reset';
  if (code && /^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return 'TLS handshake failed';
  return code ? `Network error (${code})` : 'Network error';
}
