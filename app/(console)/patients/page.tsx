import { NotForRole } from '@/components/console/orders/order-ui';
import { PatientList } from '@/components/console/patients/patient-list';
import { requireConsoleSession } from '@/web/console/session';
import { getQueryClient, HydrateClient, trpcServer } from '@/web/trpc/server';

export const metadata = { title: 'Patients · Fulfillment Rail' };

export default async function PatientsPage() {
  const { mode, me } = await requireConsoleSession();
  const readsPatients = me.scopes.includes('patients.read');
  if (readsPatients) await getQueryClient().prefetchQuery(trpcServer.patients.listPatients.queryOptions({}));
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Patients</h1>
        <p className="text-sm text-slate-600">Protected health information: every read is recorded in the patient&apos;s access log.</p>
      </div>
      {readsPatients ? (
        <HydrateClient>
          <PatientList mode={mode} canWrite={me.scopes.includes('patients.write')} />
        </HydrateClient>
      ) : (
        <NotForRole>Your role does not include reading patient records, so none are shown here.</NotForRole>
      )}
    </section>
  );
}
