'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import { BusyButton, ErrorAlert, tableHead, type ApiErrorBody } from './catalog-ui';
import type { Patient } from './patient-types';

export function SyntheticBadge() {
  return <span className="rounded bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-800">synthetic</span>;
}

export function PatientList({ patients, token, mode }: { patients: Patient[]; token: string; mode: string }) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [notice, setNotice] = useState<string>();

  async function generate() {
    setBusy(true);
    const res = await apiCall<Patient>('POST', '/patients', { synthetic: true }, { token, mode });
    setBusy(false);
    if (!res.ok) return setError(res.error ?? { message: 'The patient could not be generated.' });
    setError(undefined);
    setNotice(`Generated ${res.data.firstName} ${res.data.lastName}.`);
    router.refresh();
  }

  return (
    <div className="space-y-4">
      {mode === 'sandbox' && (
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton busy={busy} busyLabel="Generating…" onClick={generate}>Generate synthetic patient</BusyButton>
          <span className="text-sm text-slate-500">A fictitious patient with a realistic name, date of birth and address.</span>
        </div>
      )}
      {error && <ErrorAlert error={error} />}
      {notice && <p role="status" className="text-sm text-emerald-800">{notice}</p>}
      <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
        <caption className="sr-only">Patients</caption>
        <thead className={tableHead}>
          <tr><th className="px-4 py-2">Name</th><th>Date of birth</th><th>State</th><th><span className="sr-only">Kind</span></th></tr>
        </thead>
        <tbody>
          {patients.map((p) => (
            <tr key={p.id} data-testid="patient-row" className="border-t border-slate-100">
              <td className="px-4 py-2">
                <Link href={`/patients/${p.id}`} prefetch={false} className="font-medium text-indigo-700 hover:underline">
                  {p.lastName}, {p.firstName}
                </Link>
              </td>
              <td>{p.dateOfBirth}</td>
              <td>{p.address?.state ?? '—'}</td>
              <td>{p.synthetic && <SyntheticBadge />}</td>
            </tr>
          ))}
          {patients.length === 0 && <tr><td colSpan={4} className="px-4 py-3 text-slate-500">No patients in {mode} yet.</td></tr>}
        </tbody>
      </table>
    </div>
  );
}
