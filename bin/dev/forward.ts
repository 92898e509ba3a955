import { webhookBody } from '@/server/domain/events/events';
import { signedHeaders } from '@/server/domain/webhooks/send';

export interface StreamedEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
}

export interface Forwarded {
  status: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * POSTs one event to the local URL as a registered endpoint would get it: the body from the same builder as
 * every webhook delivery, the same Standard Webhooks headers, signed with the local secret. No SSRF rules (the
 * developer names their own machine) and no retries: a failed forward is printed, as `stripe listen` does.
 */
export async function forwardEvent(url: string, secret: string, event: StreamedEvent, timeoutMs: number): Promise<Forwarded> {
  const body = webhookBody({ id: event.id, type: event.type, data: event.data, createdAt: new Date(event.createdAt) });
  const started = performance.now();
  const headers = signedHeaders({ secret, eventId: event.id, body, userAgent: 'FulfillmentRail-CLI-Listen/1' }, new Date());
  try {
    const res = await fetch(url, { method: 'POST', headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel().catch(() => undefined);
    return { status: res.status, error: null, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    const error = e.name === 'TimeoutError' ? `timed out after ${timeoutMs / 1000} s` : (e.cause?.code ?? 'network error');
    return { status: null, error, durationMs: Math.round(performance.now() - started) };
  }
}
