import { loadApi } from '@/components/console/catalog-load';
import { Refused } from '@/components/console/catalog-ui';
import { PatientList } from '@/components/console/patient-list';
import type { Patient } from '@/components/console/patient-types';
import { requireConsoleSession } from '@/lib/console/session';

export const metadata = { title: 'Patients · Fulfillment Rail' };

export default async function PatientsPage() {
  const { token, mode } = await requireConsoleSession();
  const patients = await loadApi<Patient[]>('/patients', { token, mode });
  return (
    <section className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Patients</h1>
        <p className="text-sm text-slate-600">Protected health information: every read is recorded in the patient&apos;s access log.</p>
      </div>
      {patients.ok ? <PatientList patients={patients.data} token={token} mode={mode} /> : <Refused message={patients.message} />}
    </section>
  );
}
