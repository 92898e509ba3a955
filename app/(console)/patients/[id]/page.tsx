import Link from 'next/link';
import { loadApi } from '@/components/console/catalog-load';
import { Refused } from '@/components/console/catalog-ui';
import { PatientAccessLog, PatientDetail } from '@/components/console/patient-detail';
import { SyntheticBadge } from '@/components/console/patient-list';
import type { AccessLogEntry, Patient } from '@/components/console/patient-types';
import { requireConsoleSession } from '@/lib/console/session';

export const metadata = { title: 'Patient · Fulfillment Rail' };

export default async function PatientPage({ params }: { params: Promise<{ id: string }> }) {
  const { token, mode } = await requireConsoleSession();
  const { id } = await params;
  const auth = { token, mode };
  const patient = await loadApi<Patient>(`/patients/${encodeURIComponent(id)}`, auth);
  // After the read above, so the log shows this very view.
  const log = patient.ok ? await loadApi<AccessLogEntry[]>(`/patients/${encodeURIComponent(id)}/access-log`, auth) : null;
  return (
    <section className="space-y-6">
      <Link href="/patients" className="text-sm text-indigo-700 hover:underline">← Patients</Link>
      {!patient.ok ? (
        <Refused message={patient.message} />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <h1 className="text-2xl font-semibold">
              {patient.data.firstName} {patient.data.lastName}
            </h1>
            {patient.data.synthetic && <SyntheticBadge />}
          </div>
          <PatientDetail patient={patient.data} />
          <div className="space-y-3">
            <h2 className="text-xl font-semibold">Access log</h2>
            {log && log.ok ? <PatientAccessLog entries={log.data} /> : log && <Refused message={log.message} />}
          </div>
        </>
      )}
    </section>
  );
}
