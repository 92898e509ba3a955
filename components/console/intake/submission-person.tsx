import Link from 'next/link';
import { card } from '../catalog/catalog-ui';
import { IdChip } from '../ui/copy-button';
import { formatDate } from '../ui/format';
import type { ConsoleSubmission } from './intake-submission-types';

type Person = NonNullable<ConsoleSubmission['person']>;

const SEX: Record<Person['sexAtBirth'], string> = { female: 'Female', male: 'Male', intersex: 'Intersex', unknown: 'Not recorded' };

/** "29.1 (170 cm, 84 kg)": the BMI with the measures it came from, so the reviewer can check it. */
const bmiText = (b: NonNullable<Person['bmi']>) => `${b.value.toFixed(1)} (${b.height.value} ${b.height.unit}, ${b.weight.value} ${b.weight.unit})`;

/** The reviewer's licence for the patient's state, in words, never in colour alone. */
function Licence({ state, licensed }: { state: string | null; licensed: boolean | null }) {
  if (!state) return <span data-testid="person-licence" className="font-medium text-amber-900">State unknown: no licence can be checked</span>;
  if (licensed === null) return null;
  return licensed ? (
    <span data-testid="person-licence" className="text-emerald-800">✓ You are licensed in {state}</span>
  ) : (
    <span data-testid="person-licence" className="font-medium text-red-800">✗ You are not licensed in {state}</span>
  );
}

/**
 * Who the submission is about, as the provider must know before deciding (DESIGN decision 33). Reading it
 * was written to the patient's access log by the query that brought it, so the panel says so.
 */
export function PersonPanel({ s }: { s: ConsoleSubmission }) {
  const p = s.person;
  return (
    <section aria-labelledby="person-heading" data-testid="person-panel" className={`${card} space-y-3 text-sm`}>
      <h2 id="person-heading" className="text-lg font-semibold">Patient</h2>
      {!p ? (
        <p className="text-slate-600">Your role does not include reading patient records, so the person is not shown.</p>
      ) : (
        <>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <Link href={`/patients/${s.patientId}`} data-testid="person-name" className="text-base font-semibold break-words text-indigo-700 hover:underline">
              {p.firstName} {p.lastName}
            </Link>
            <IdChip id={s.patientId} />
          </p>
          <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
            <dt className="font-medium text-slate-500">Date of birth</dt>
            <dd data-testid="person-dob">
              {formatDate(p.dateOfBirth)}
              {p.ageAtSubmission !== null && <> · {p.ageAtSubmission} years old when submitted</>}
            </dd>
            <dt className="font-medium text-slate-500">Sex at birth</dt>
            <dd data-testid="person-sex">{SEX[p.sexAtBirth]}</dd>
            <dt className="font-medium text-slate-500">State</dt>
            <dd data-testid="person-state" className="flex flex-wrap gap-x-3">
              <span>{p.state ?? 'Unknown'}</span>
              <Licence state={p.state} licensed={s.reviewerLicensed} />
            </dd>
            <dt className="font-medium text-slate-500">E-mail</dt>
            <dd data-testid="person-email" className="break-all">{p.email ?? '—'}</dd>
            <dt className="font-medium text-slate-500">BMI</dt>
            <dd data-testid="person-bmi">{p.bmi ? bmiText(p.bmi) : 'Height and weight not both answered'}</dd>
          </dl>
          <p className="text-xs text-slate-500">Showing this person was recorded in the patient’s access log under your name.</p>
        </>
      )}
    </section>
  );
}
