import { WebhooksManager } from '@/components/console/webhooks-manager';
import type { Endpoint } from '@/components/console/webhook-row';
import { callApi } from '@/lib/console/api';
import { requireConsoleSession } from '@/lib/console/session';

export default async function WebhooksPage() {
  const { token, mode } = await requireConsoleSession();
  const [endpoints, eventTypes] = await Promise.all([
    callApi<Endpoint[]>('/developer/webhooks', { token, mode }),
    callApi<string[]>('/developer/webhooks/events', { token, mode }),
  ]);
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">Webhooks</h1>
      <p className="text-sm text-slate-600">Signed deliveries (Standard Webhooks) of this clinic’s {mode} events. Receivers dedupe on the webhook-id header.</p>
      <WebhooksManager endpoints={endpoints} eventTypes={eventTypes} token={token} mode={mode} />
    </section>
  );
}
