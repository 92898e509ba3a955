import { UsageReport } from '@/components/console/developer/usage-report';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Usage · Fulfillment Rail' };

export default async function UsagePage() {
  const { me, mode } = await requireConsoleSession();
  const allowed = me.scopes.includes('usage.read');
  if (allowed) {
    await Promise.all([
      getQueryClient().prefetchQuery(trpcServer.developer.getUsage.queryOptions({})),
      getQueryClient().prefetchQuery(trpcServer.developer.billableRoutedDaily.queryOptions()),
    ]);
  }
  return (
    <section className="space-y-6">
      <h1 className="text-2xl font-semibold">Usage</h1>
      {allowed ? (
        <HydrateClient>
          <UsageReport mode={mode} />
        </HydrateClient>
      ) : (
        <p className="text-sm text-slate-600">Usage and billing figures are for owners, admins and developers; your role cannot see them.</p>
      )}
    </section>
  );
}
