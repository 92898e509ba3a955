import { BillingOverview } from '@/components/console/billing/billing-overview';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Billing · Fulfillment Rail' };

type Params = { checkout?: string | string[]; portal?: string | string[] };
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function BillingPage({ searchParams }: { searchParams: Promise<Params> }) {
  const { me, mode } = await requireConsoleSession();
  const allowed = me.scopes.includes('billing.manage');
  const sp = await searchParams;
  if (allowed) await getQueryClient().prefetchQuery(trpcServer.billing.get.queryOptions({}));
  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Billing</h1>
        <p className="mt-1 text-sm text-slate-600">
          {mode === 'live' ? 'Your clinic’s subscription: the plan sets the monthly cap on live orders.' : 'Sandbox: a rehearsal of checkout and payment problems that never charges anything or changes your live plan.'}
        </p>
      </div>
      {allowed ? (
        <HydrateClient>
          <BillingOverview back={{ checkout: first(sp.checkout), portal: first(sp.portal) }} />
        </HydrateClient>
      ) : (
        <p data-testid="no-access" className="rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
          Only owners and admins manage billing. Your role ({me.user.role}) cannot see the plan or payments; ask an owner or admin of this clinic if something needs to change.
        </p>
      )}
    </section>
  );
}
