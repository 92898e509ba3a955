'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, tableHead } from '../catalog/catalog-ui';
import { IdChip } from '../ui/copy-button';
import { TableScroll } from '../ui/data-table';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';

export function SyntheticBadge() {
  return <span className="rounded bg-violet-100 px-2 py-0.5 text-xs font-medium text-violet-800">synthetic</span>;
}

/** The clinic's patients, newest first (each row shown is a logged read); sandbox can generate fictitious ones. */
export function PatientList({ mode, canWrite }: { mode: string; canWrite: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const patients = useQuery(trpc.patients.listPatients.queryOptions({}));
  const generate = useMutation(
    trpc.patients.createPatient.mutationOptions({ onSuccess: () => qc.invalidateQueries({ queryKey: trpc.patients.listPatients.queryKey() }) }),
  );

  return (
    <div className="space-y-4">
      {mode === 'sandbox' && canWrite && (
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton busy={generate.isPending} busyLabel="Generating…" onClick={() => generate.mutate({ synthetic: true })}>Generate synthetic patient</BusyButton>
          <span className="text-sm text-slate-500">A fictitious patient with a realistic name, date of birth and address.</span>
        </div>
      )}
      {generate.isError && <QueryError error={generate.error} title="The patient was not generated." />}
      {generate.data && <p role="status" className="text-sm text-emerald-800">Generated {generate.data.firstName} {generate.data.lastName}.</p>}
      {patients.isPending ? (
        <Loading label="Loading patients…" />
      ) : patients.isError ? (
        <QueryError error={patients.error} title="Patients could not be listed." />
      ) : (
        <TableScroll label="Patients">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Patients</caption>
            <thead className={tableHead}>
              <tr><th className="px-4 py-2">Name</th><th className="px-4 py-2">Date of birth</th><th className="px-4 py-2">State</th><th className="px-4 py-2">Added</th><th className="px-4 py-2"><span className="sr-only">Kind</span></th></tr>
            </thead>
            <tbody>
              {patients.data.map((p) => (
                <tr key={p.id} data-testid="patient-row" className="border-t border-slate-100 align-top">
                  <td className="px-4 py-2">
                    <div className="flex flex-wrap items-center gap-x-2">
                      <Link href={`/patients/${p.id}`} prefetch={false} className="font-medium break-words text-indigo-700 hover:underline">
                        {p.lastName}, {p.firstName}
                      </Link>
                      <IdChip id={p.id} />
                    </div>
                  </td>
                  <td className="px-4 py-2 whitespace-nowrap">{p.dateOfBirth}</td>
                  <td className="px-4 py-2">{p.address?.state ?? '—'}</td>
                  <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(p.createdAt)}</td>
                  <td className="px-4 py-2">{p.synthetic && <SyntheticBadge />}</td>
                </tr>
              ))}
              {patients.data.length === 0 && <tr><td colSpan={5} className="px-4 py-3 text-slate-500">No patients in {mode} yet.</td></tr>}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}
