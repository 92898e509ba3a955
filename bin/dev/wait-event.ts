import type { FulfillmentRail } from '@/sdk/src/index';

/**
 * The event of `type` about `subject` (an id inside its data), read back from the event log: what the trigger
 * made happen. Polls until `timeoutMs` has passed (the simulated pharmacy and the worker act a moment after the API call).
 */
export async function waitForEvent(api: FulfillmentRail, type: string, subject: string, timeoutMs: number, signal: AbortSignal) {
  const until = Date.now() + timeoutMs;
  for (let delay = 250; ; delay = Math.min(2_000, delay * 2)) {
    const page = await api.events.list({ type, limit: 50 });
    const found = page.data.find((e) => Object.values(e.data as Record<string, unknown>).includes(subject));
    if (found) return found;
    if (Date.now() > until || signal.aborted) return null;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}
