import Link from 'next/link';
import { IntakeSubmissionDetail } from '@/components/console/intake/intake-submission-detail';
import { NotForRole } from '@/components/console/orders/order-ui';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Intake submission · Fulfillment Rail' };

export default async function IntakeSubmissionPage({ params }: { params: Promise<{ id: string }> }) {
  const { me } = await requireConsoleSession();
  const { id } = await params;
  const reads = me.scopes.includes('intake.review') || me.scopes.includes('patients.read');
  // The record with the person it describes: one logged PHI read per view (the answers are read, logged, on request).
  if (reads) await getQueryClient().prefetchQuery(trpcServer.intake.submissionForReview.queryOptions({ id }));
  return (
    <section className="space-y-6">
      <Link href="/intake/submissions" className="text-sm text-indigo-700 hover:underline">← Intake review</Link>
      {reads ? (
        <HydrateClient>
          <IntakeSubmissionDetail id={id} readsPatients={me.scopes.includes('patients.read')} isProvider={me.user.role === 'provider'} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include intake review. Ask a clinic admin if you need it.</NotForRole>
      )}
    </section>
  );
}
