'use client';

import { useQuery } from '@tanstack/react-query';
import { HostedLinkSender } from './hosted-link-sender';
import { useTRPC } from '@/web/trpc/client';
import { tableHead } from '../catalog/catalog-ui';
import { CopyButton } from '../ui/copy-button';
import { FhirLinks } from '../ui/fhir-links';
import { fhirPaths } from '@/server/domain/fhir/shared/ids';
import { TableScroll } from '../ui/data-table';
import { formatDateTime } from '../ui/format';
import { useNames } from '../orders/order-data';
import { Named } from '../orders/order-ui';
import { SyntheticBadge } from './patient-list';
import type { AccessLogEntry, Patient } from './patient-types';
import { Loading, QueryError } from '../ui/query-state';

/** Every field of a patient record (PHI), read-only. */
function PatientFields({ patient }: { patient: Patient }) {
  const a = patient.address;
  const fields: [string, React.ReactNode][] = [
    ['Patient id', <span key="id" className="inline-flex items-center gap-2"><span className="font-mono break-all">{patient.id}</span><CopyButton value={patient.id} label="Copy patient id" /></span>],
    ['First name', patient.firstName],
    ['Last name', patient.lastName],
    ['Date of birth', patient.dateOfBirth],
    ['Sex', patient.sex],
    ['E-mail', patient.email ?? '—'],
    ['Phone', patient.phone ?? '—'],
    ['Address', a ? `${a.line1}${a.line2 ? `, ${a.line2}` : ''}, ${a.city}, ${a.state} ${a.postalCode}, ${a.country}` : '—'],
    ['Allergies', patient.allergies.length ? patient.allergies.join('; ') : 'None recorded'],
    ['Medications', patient.medications.length ? patient.medications.join('; ') : 'None recorded'],
    ['Mode', patient.livemode ? 'live' : 'sandbox'],
    ['Synthetic', patient.synthetic ? 'Yes (fictitious test patient)' : 'No'],
    ['Created', formatDateTime(patient.createdAt)],
    ['Updated', formatDateTime(patient.updatedAt)],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[max-content_1fr]">
      {fields.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-500">{k}</dt>
          <dd className="min-w-0 break-words text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

// `patient`: the patient themself in the patient portal; the id beside it is their portal session (pss_…).
const ACTOR_WORDS: Record<AccessLogEntry['actorKind'], string> = { key: 'API key', user: 'User', patient: 'The patient (portal)' };

function AccessLog({ entries }: { entries: AccessLogEntry[] }) {
  const names = useNames(entries.map((e) => e.actorId));
  return (
    <TableScroll label="Access log">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Access log</caption>
        <thead className={tableHead}>
          <tr><th className="px-4 py-2">Who</th><th className="px-4 py-2">Action</th><th className="px-4 py-2">When</th><th className="px-4 py-2">Request</th></tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.id} data-testid="access-log-row" className="border-t border-slate-100 align-top">
              <td className="px-4 py-2">
                <span className="text-slate-500">{ACTOR_WORDS[e.actorKind]}</span> <Named id={e.actorId} name={names.get(e.actorId)?.name} />
              </td>
              <td className="px-4 py-2">{e.action}</td>
              <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(e.at)}</td>
              <td className="px-4 py-2 font-mono text-xs break-all">{e.requestId ?? '—'}</td>
            </tr>
          ))}
          {entries.length === 0 && <tr><td colSpan={4} className="px-4 py-3 text-slate-500">No access recorded.</td></tr>}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** A patient's record and, for those who may read it, who read it when (the log is read after the record, so it shows this view). */
export function PatientView({ id, sendsIntake = false }: { id: string; sendsIntake?: boolean }) {
  const trpc = useTRPC();
  const patient = useQuery(trpc.patients.getPatient.queryOptions({ id }));
  const log = useQuery({ ...trpc.patients.listPatientAccessLog.queryOptions({ id }), enabled: patient.isSuccess });
  if (patient.isPending) return <Loading label="Loading the patient…" />;
  if (patient.isError) return <QueryError error={patient.error} title="This patient could not be read." />;
  const p = patient.data;
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold break-words">
          {p.firstName} {p.lastName}
        </h1>
        {p.synthetic && <SyntheticBadge />}
      </div>
      <PatientFields patient={p} />
      <FhirLinks links={[{ label: 'Patient', path: fhirPaths.patient(p.id) }, { label: 'Everything', path: fhirPaths.everything(p.id) }]} />
      {sendsIntake && <HostedLinkSender patientId={p.id} hasEmail={!!p.email} />}
      <div className="space-y-3">
        <h2 className="text-xl font-semibold">Access log</h2>
        {log.isPending ? <Loading label="Loading the access log…" /> : log.isError ? <QueryError error={log.error} /> : <AccessLog entries={log.data} />}
      </div>
    </>
  );
}
