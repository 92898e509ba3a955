import { NotForRole } from '@/components/console/orders/order-ui';
import { QuestionnaireTabs, readsQuestionnaires } from '@/components/console/intake/intake-ui';
import { QuestionnaireLibrary } from '@/components/console/intake/questionnaire-library';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Questionnaires · Fulfillment Rail' };

export default async function QuestionnairesPage() {
  const { mode, me } = await requireConsoleSession();
  const reads = readsQuestionnaires(me.scopes);
  if (reads) await getQueryClient().prefetchQuery(trpcServer.intake.questionnaireVersions.queryOptions({}));
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Questionnaires</h1>
        <p className="text-sm text-slate-600">
          The clinic’s intake questionnaires in {mode}, every version with its state. Patients answer only the approved version of each; a new version waits for a
          provider’s approval.
        </p>
      </div>
      <QuestionnaireTabs active="library" />
      {reads ? (
        <HydrateClient>
          <QuestionnaireLibrary mode={mode} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include the questionnaires. Ask a clinic admin if you need them.</NotForRole>
      )}
    </section>
  );
}
