import Link from 'next/link';
import { NotForRole } from '@/components/console/orders/order-ui';
import { PatientView } from '@/components/console/patients/patient-detail';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Patient · Fulfillment Rail' };

export default async function PatientPage({ params }: { params: Promise<{ id: string }> }) {
  const { me } = await requireConsoleSession();
  const { id } = await params;
  const readsPatients = me.scopes.includes('patients.read');
  // The record first (a logged read), then its log, so the log shows this very view.
  if (readsPatients) await getQueryClient().prefetchQuery(trpcServer.patients.getPatient.queryOptions({ id }));
  return (
    <section className="space-y-6">
      <Link href="/patients" className="text-sm text-indigo-700 hover:underline">← Patients</Link>
      {readsPatients ? (
        <HydrateClient>
          <PatientView id={id} sendsIntake={me.scopes.includes('patients.write') && (me.scopes.includes('catalog.manage') || me.scopes.includes('intake.review'))} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include reading patient records, so this one is not shown.</NotForRole>
      )}
    </section>
  );
}
