import { notFound } from 'next/navigation';
import { HostedIntake } from '@/components/intake/hosted-intake';
import { publicCaller, statusOf } from '@/web/trpc/public-server';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Your questionnaire', robots: { index: false, follow: false }, referrer: 'no-referrer' };

/** A patient's one-time intake link (DESIGN decision 21): unknown, expired and used links are one friendly 404. */
export default async function HostedIntakePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const caller = await publicCaller();
  const intake = await caller.intake.getHostedIntake({ token }).catch((err: unknown) => {
    if (statusOf(err) === 404) notFound();
    throw err;
  });
  return <HostedIntake token={token} clinicName={intake.clinicName} questionnaire={intake.questionnaire} />;
}
