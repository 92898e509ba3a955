import { IntakeReferenceSearch } from '@/components/console/intake/intake-reference-search';
import { IntakeSubmissionList } from '@/components/console/intake/intake-submission-list';
import { PAGE_SIZE, SUBMISSION_FILTERS, type SubmissionFilter } from '@/components/console/intake/intake-submission-types';
import { NotForRole } from '@/components/console/orders/order-ui';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Intake review · Fulfillment Rail' };

const filterOf = (v: string | string[] | undefined): SubmissionFilter => SUBMISSION_FILTERS.find((f) => f.value === v)?.value ?? 'pending_review';

export default async function IntakeSubmissionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { mode, me } = await requireConsoleSession();
  const status = filterOf((await searchParams).status);
  const reads = me.scopes.includes('intake.review') || me.scopes.includes('patients.read');
  if (reads) {
    const qc = getQueryClient();
    await Promise.all([
      qc.prefetchQuery(trpcServer.intake.reviewQueue.queryOptions({ status, sandbox: mode === 'sandbox' ? 'true' : 'false', limit: PAGE_SIZE })),
      qc.prefetchQuery(trpcServer.intake.questionnaireVersions.queryOptions({})),
    ]);
  }
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Intake review</h1>
        <p className="text-sm text-slate-600">
          Questionnaire submissions in {mode}, newest first, with the engine’s verdict and the rules they matched. An eligible submission waits for a licensed provider;
          approving it creates the order and sends it to the pharmacy.
        </p>
      </div>
      {reads ? (
        <HydrateClient>
          <IntakeReferenceSearch mode={mode} />
          <IntakeSubmissionList status={status} mode={mode} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include intake review. Ask a clinic admin if you need it.</NotForRole>
      )}
    </section>
  );
}
