import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { WebhooksManager } from '@/components/console/developer/webhooks-manager';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Webhooks · Fulfillment Rail' };

export default async function WebhooksPage() {
  const { me, mode } = await requireConsoleSession();
  const allowed = me.scopes.includes('webhooks.manage');
  if (allowed) {
    await Promise.all([
      getQueryClient().prefetchQuery(trpcServer.webhooks.listWebhookEndpoints.queryOptions({})),
      getQueryClient().prefetchQuery(trpcServer.webhooks.listWebhookEventTypes.queryOptions({})),
    ]);
  }
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Webhooks</h1>
        <p className="text-sm text-slate-600">Signed deliveries (Standard Webhooks) of this clinic’s {mode} events. Receivers dedupe on the webhook-id header.</p>
      </div>
      {allowed ? (
        <HydrateClient>
          <WebhooksManager mode={mode} />
        </HydrateClient>
      ) : (
        <NoAccess what="manage webhook endpoints" role={me.user.role} />
      )}
    </section>
  );
}
