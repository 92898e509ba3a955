import { formatWhen, tableHead } from './catalog-ui';
import type { AccessLogEntry, Patient } from './patient-types';

/** Every field of a patient record (PHI), read-only. A server component. */
export function PatientDetail({ patient }: { patient: Patient }) {
  const a = patient.address;
  const fields: [string, React.ReactNode][] = [
    ['Patient id', <span key="id" className="font-mono">{patient.id}</span>],
    ['First name', patient.firstName],
    ['Last name', patient.lastName],
    ['Date of birth', patient.dateOfBirth],
    ['Sex', patient.sex],
    ['E-mail', patient.email ?? '—'],
    ['Phone', patient.phone ?? '—'],
    [
      'Address',
      a ? (
        <span key="addr">
          {a.line1}
          {a.line2 ? `, ${a.line2}` : ''}, {a.city}, {a.state} {a.postalCode}, {a.country}
        </span>
      ) : (
        '—'
      ),
    ],
    ['Allergies', patient.allergies.length ? patient.allergies.join('; ') : 'None recorded'],
    ['Medications', patient.medications.length ? patient.medications.join('; ') : 'None recorded'],
    ['Mode', patient.livemode ? 'live' : 'sandbox'],
    ['Synthetic', patient.synthetic ? 'Yes (fictitious test patient)' : 'No'],
    ['Created', formatWhen(patient.createdAt)],
    ['Updated', formatWhen(patient.updatedAt)],
  ];
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:grid-cols-[max-content_1fr]">
      {fields.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium text-slate-500">{k}</dt>
          <dd className="text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

export function PatientAccessLog({ entries }: { entries: AccessLogEntry[] }) {
  return (
    <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
      <caption className="sr-only">Access log</caption>
      <thead className={tableHead}>
        <tr><th className="px-4 py-2">Who</th><th>Action</th><th>When</th><th>Request</th></tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id} data-testid="access-log-row" className="border-t border-slate-100">
            <td className="px-4 py-2">
              {e.actorKind === 'key' ? 'API key' : 'User'} <span className="font-mono text-xs">{e.actorId}</span>
            </td>
            <td>{e.action}</td>
            <td>{formatWhen(e.at)}</td>
            <td className="font-mono text-xs">{e.requestId ?? '—'}</td>
          </tr>
        ))}
        {entries.length === 0 && <tr><td colSpan={4} className="px-4 py-3 text-slate-500">No access recorded.</td></tr>}
      </tbody>
    </table>
  );
}
