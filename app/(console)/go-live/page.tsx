import { NoAccess } from '@/components/console/catalog/catalog-ui';
import { GoLiveChecklist } from '@/components/console/go-live/go-live-checklist';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Go live · Fulfillment Rail' };

export default async function GoLivePage() {
  const { me, mode } = await requireConsoleSession();
  const allowed = me.scopes.includes('flows.manage');
  if (allowed) await getQueryClient().prefetchQuery(trpcServer.overview.goLive.queryOptions());
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Go live</h1>
        <p className="text-sm text-slate-600">
          What {me.tenant?.name ?? 'the clinic'} sets up in <span className={mode === 'live' ? 'font-semibold text-emerald-700' : 'font-semibold text-amber-700'}>{mode}</span>{' '}
          before a patient can open its hosted page, in the order to do it. Each step links to the page where it is done.
        </p>
        {mode === 'sandbox' && (
          <p data-testid="go-live-sandbox-note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
            This is sandbox, the rehearsal: nothing here reaches a real pharmacy. Live mode is set up separately; switch to live at the top of the page when you are ready.
          </p>
        )}
      </div>
      {allowed ? (
        <HydrateClient>
          <GoLiveChecklist />
        </HydrateClient>
      ) : (
        <NoAccess what="set up the clinic for going live" role={me.user.role} />
      )}
    </section>
  );
}
