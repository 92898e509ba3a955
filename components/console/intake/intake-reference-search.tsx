'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { useTRPC, type Mode } from '@/web/trpc/client';
import { formatDateTime } from '../ui/format';
import { SubmissionStatusBadge, VerdictBadge } from './intake-submission-list';
import { QueryError } from '../ui/query-state';

// The stored form's alphabet (Crockford base32); what a patient reads out may carry spaces, dashes or lower case.
const LOOKS_LIKE_REFERENCE = /^[0-9A-Za-z][0-9A-Za-z\s-]{6,14}[0-9A-Za-z]$/;

/**
 * Finds the submissions behind the reference a patient quotes from their outcome page (7KQ2-M9XD), in this
 * mode, whatever their status: a phone call starts with it. Usually one; two submissions may rarely share one.
 */
export function IntakeReferenceSearch({ mode }: { mode: Mode }) {
  const id = useId();
  const trpc = useTRPC();
  const [typed, setTyped] = useState('');
  const [reference, setReference] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const found = useQuery({
    ...trpc.intake.listSubmissions.queryOptions({ status: 'all', sandbox: mode === 'sandbox' ? 'true' : 'false', limit: 10, reference: reference ?? '' }),
    enabled: reference !== null,
  });

  function search(e: React.FormEvent) {
    e.preventDefault();
    const value = typed.trim();
    if (!LOOKS_LIKE_REFERENCE.test(value)) {
      setProblem('Enter the 8 letters and digits the patient reads from their page, like 7KQ2-M9XD.');
      return;
    }
    setProblem(null);
    setReference(value);
  }

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Find by patient reference
      </h2>
      <form onSubmit={search} noValidate className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`${id}-ref`} className="block text-sm font-medium text-slate-700">
            Reference
          </label>
          <input
            id={`${id}-ref`}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            className="mt-1 block w-44 rounded-md border border-slate-300 px-3 py-2 font-mono text-sm uppercase shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
          />
        </div>
        <button type="submit" className="rounded-md bg-indigo-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-600">
          Find
        </button>
      </form>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="text-sm text-red-700">
          {problem}
        </p>
      )}
      {reference !== null && found.isError && <QueryError error={found.error} title="The reference could not be looked up." />}
      {reference !== null && found.data && (
        <div role="status">
          {found.data.length === 0 ? (
            <p className="text-sm text-slate-600">No submission in {mode} has this reference. Check the letters with the patient, or switch mode.</p>
          ) : (
            <ul className="space-y-2" data-testid="reference-results">
              {found.data.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center gap-2 text-sm">
                  <Link href={`/intake/submissions/${s.id}`} prefetch={false} className="font-mono font-semibold text-indigo-700 hover:underline">
                    {s.reference}
                  </Link>
                  <VerdictBadge verdict={s.verdict} />
                  <SubmissionStatusBadge status={s.status} />
                  <span className="text-slate-600">
                    {s.questionnaireKey} v{s.questionnaireVersion} · {formatDateTime(s.createdAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
