import { NoAccess, card } from '@/components/console/catalog/catalog-ui';
import { FlowCreateForm } from '@/components/console/flows/flow-create-form';
import { FlowGenerateForm } from '@/components/console/flows/flow-generate-form';
import { FlowTabs } from '@/components/console/flows/flow-tabs';
import { FlowsList } from '@/components/console/flows/flows-list';
import { readsFlows } from '@/components/console/flows/flow-access';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Flows · Fulfillment Rail' };

export default async function FlowsPage() {
  const { me, mode } = await requireConsoleSession();
  const reads = readsFlows(me.scopes);
  const manages = me.scopes.includes('flows.manage');
  if (reads) {
    await Promise.all([
      getQueryClient().prefetchQuery(trpcServer.flows.list.queryOptions({})),
      manages ? getQueryClient().prefetchQuery(trpcServer.intake.questionnaireVersions.queryOptions({})) : null,
    ]);
  }
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Flows</h1>
        <p className="text-sm text-slate-600">
          Patient funnels in {mode}: copy and theme change freely and publish at once; the clinical steps (medical questions, consent, contact) go live only after a
          provider approves them.
        </p>
      </div>
      {manages && <FlowTabs active="flows" />}
      {reads ? (
        <HydrateClient>
          {manages && (
            <section className={card} aria-labelledby="new-flow">
              <h2 id="new-flow" className="mb-3 font-semibold">
                Create a flow
              </h2>
              <FlowCreateForm />
              <details className="mt-4 border-t border-slate-100 pt-3">
                <summary className="cursor-pointer text-sm font-medium text-indigo-700">Or draft one with AI from a description</summary>
                <div className="mt-3">
                  <FlowGenerateForm />
                </div>
              </details>
            </section>
          )}
          <FlowsList mode={mode} isProvider={me.user.role === 'provider'} />
        </HydrateClient>
      ) : (
        <NoAccess what="read flows" role={me.user.role} />
      )}
    </section>
  );
}
