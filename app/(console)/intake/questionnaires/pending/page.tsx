import { NotForRole } from '@/components/console/orders/order-ui';
import { QuestionnaireTabs, readsQuestionnaires } from '@/components/console/intake/intake-ui';
import { QuestionnairePending } from '@/components/console/intake/questionnaire-pending';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Questionnaires pending approval · Fulfillment Rail' };

export default async function PendingQuestionnairesPage() {
  const { mode, me } = await requireConsoleSession();
  const reads = readsQuestionnaires(me.scopes);
  if (reads) await getQueryClient().prefetchQuery(trpcServer.intake.questionnaireVersions.queryOptions({}));
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Questionnaires</h1>
        <p className="text-sm text-slate-600">
          Versions in {mode} waiting for a provider, each with what it prescribes. Approving one makes it the version patients answer, retires the one before and
          takes older versions still waiting out of this list; the approval is bound to the content shown here.
        </p>
      </div>
      <QuestionnaireTabs active="pending" />
      {reads ? (
        <HydrateClient>
          <QuestionnairePending mode={mode} isProvider={me.user.role === 'provider'} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include the questionnaires. Ask a clinic admin if you need them.</NotForRole>
      )}
    </section>
  );
}
