import Link from 'next/link';
import { readsQuestionnaires } from '@/components/console/intake/intake-ui';
import { NotForRole } from '@/components/console/orders/order-ui';
import { QuestionnaireVersions } from '@/components/console/intake/questionnaire-versions';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Questionnaire · Fulfillment Rail' };

const KEY = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const versionOf = (v: string | string[] | undefined) => (typeof v === 'string' && /^[1-9]\d{0,6}$/.test(v) ? Number(v) : undefined);

export default async function QuestionnairePage({ params, searchParams }: { params: Promise<{ key: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { me } = await requireConsoleSession();
  const { key: raw } = await params;
  const key = decodeURIComponent(raw);
  const query = await searchParams;
  const reads = readsQuestionnaires(me.scopes);
  const valid = KEY.test(key);
  if (reads && valid) await getQueryClient().prefetchQuery(trpcServer.intake.questionnaireVersions.queryOptions({ key }));
  return (
    <section className="space-y-6">
      <Link href="/intake/questionnaires" className="text-sm text-indigo-700 hover:underline">← Questionnaires</Link>
      {!reads ? (
        <NotForRole>Your role does not include the questionnaires. Ask a clinic admin if you need them.</NotForRole>
      ) : !valid ? (
        <NotForRole>That is not a questionnaire key.</NotForRole>
      ) : (
        <HydrateClient>
          <QuestionnaireVersions keyName={key} version={versionOf(query.version)} compare={versionOf(query.compare)} />
        </HydrateClient>
      )}
    </section>
  );
}
