import Link from 'next/link';
import { NotForRole } from '@/components/console/orders/order-ui';
import { QuestionnaireTabs, readsQuestionnaires } from '@/components/console/intake/intake-ui';
import { QuestionnaireBuilder } from '@/components/questionnaire-builder/questionnaire-builder';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Build a questionnaire · Fulfillment Rail' };

const KEY = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** The builder: a new questionnaire, or (`?from=<key>`) the next version of one, starting from its newest version. */
export default async function NewQuestionnairePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { mode, me } = await requireConsoleSession();
  const { from } = await searchParams;
  const fromKey = typeof from === 'string' && KEY.test(from) ? from : undefined;
  const reads = readsQuestionnaires(me.scopes);
  if (reads && fromKey) await getQueryClient().prefetchQuery(trpcServer.intake.questionnaireVersions.queryOptions({ key: fromKey }));
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold break-words">{fromKey ? `New version of ${fromKey}` : 'New questionnaire'}</h1>
        <p className="text-sm text-slate-600">
          Build the questions, when each shows and the rules that decide eligibility, in {mode}. Problems show beside what they concern as you edit; the preview is the
          patient’s form. Publishing sends it to a provider for approval.
        </p>
        {fromKey && (
          <Link href={`/intake/questionnaires/${encodeURIComponent(fromKey)}`} className="text-sm text-indigo-700 hover:underline">
            ← The versions of {fromKey}
          </Link>
        )}
      </div>
      <QuestionnaireTabs active="build" />
      {reads ? (
        <HydrateClient>
          <QuestionnaireBuilder fromKey={fromKey} canPickProtocol={me.scopes.includes('catalog.manage')} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include the questionnaires. Ask a clinic admin if you need them.</NotForRole>
      )}
    </section>
  );
}
