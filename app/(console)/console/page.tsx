import { OverviewDashboard, ROUTED_DAYS } from '@/components/console/overview/overview-dashboard';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Overview · Fulfillment Rail' };

// The scopes that reach at least one block of the overview (server/domain/overview/overview.ts).
const OVERVIEW_SCOPES = ['orders.read', 'intake.review', 'webhooks.manage', 'usage.read'];

export default async function OverviewPage() {
  const { me, mode } = await requireConsoleSession();
  const seesSomething = OVERVIEW_SCOPES.some((s) => me.scopes.includes(s));
  const seesOrders = me.scopes.includes('orders.read');
  if (seesSomething) {
    await Promise.all([
      getQueryClient().prefetchQuery(trpcServer.overview.summary.queryOptions()),
      seesOrders ? getQueryClient().prefetchQuery(trpcServer.overview.routedOrdersDaily.queryOptions({ days: ROUTED_DAYS })) : undefined,
    ]);
  }
  return (
    <section className="space-y-6">
      <div className="space-y-1">
        <h1 className="text-2xl font-semibold">Overview</h1>
        <p className="break-words text-sm text-slate-600">
          {me.tenant?.name ?? 'Your clinic'} in <span className={mode === 'live' ? 'font-semibold text-emerald-700' : 'font-semibold text-amber-700'}>{mode}</span>. Days are UTC days.
        </p>
      </div>
      {!me.user.mfaEnabled && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Two-factor authentication is off. Turn it on from your Account page{me.user.role === 'provider' ? ': providers need it to approve anything.' : '.'}
        </p>
      )}
      {seesSomething ? (
        <HydrateClient>
          <OverviewDashboard showRoutedChart={seesOrders} />
        </HydrateClient>
      ) : (
        <p className="text-sm text-slate-600">Your role has no overview figures to show. Use the navigation to reach the pages it allows.</p>
      )}
    </section>
  );
}
