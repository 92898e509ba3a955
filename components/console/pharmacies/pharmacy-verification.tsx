'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal } from '../catalog/catalog-errors';
import { BusyButton, formatWhen } from '../catalog/catalog-ui';
import { QueryError } from '../ui/query-state';
import { verificationInput, type Pharmacy, type PharmacyVerification as Run } from './pharmacy-types';

/** How often the page reads a run again while the worker is still checking. */
const RUNNING_POLL_MS = 2000;

const STATUS_WORDS: Record<Run['status'], { text: string; tone: string }> = {
  running: { text: 'Checking…', tone: 'bg-slate-100 text-slate-700' },
  passed: { text: 'All checks passed', tone: 'bg-emerald-50 text-emerald-800' },
  failed: { text: 'Checks failed', tone: 'bg-red-50 text-red-800' },
};

/**
 * What an http pharmacy's card says until its last check passed. Enabling stays the clinic's call (the API does not
 * refuse it): the card says what is missing, before and after.
 */
export function verificationAdvice(run: Run | null | undefined, enabled: boolean): string | null {
  if (run?.status === 'passed') return null;
  const then = enabled ? 'This pharmacy already takes live orders:' : 'Before enabling this pharmacy for live orders,';
  if (run?.status === 'running') return `${then} wait for the running protocol check to pass.`;
  if (run?.status === 'failed') return `${then} fix what the last protocol check names and run it again until it passes.`;
  return `${then} run the protocol check and see it pass.`;
}

/**
 * An http pharmacy's protocol check (issue 54): the last run, each check with what was expected and seen, and a
 * button that runs it again from the service (POST /v1/pharmacies/{id}/verify).
 */
export function PharmacyVerification({ pharmacy }: { pharmacy: Pharmacy }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const last = useQuery({
    ...trpc.pharmacies.getPharmacyVerification.queryOptions(verificationInput(pharmacy.id)),
    refetchInterval: (q) => (q.state.data?.status === 'running' ? RUNNING_POLL_MS : false),
  });
  const run = useMutation(
    trpc.pharmacies.verifyPharmacy.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.pharmacies.getPharmacyVerification.queryKey(verificationInput(pharmacy.id)) }),
    }),
  );
  const data = last.data;
  return (
    <section className="mt-4 space-y-2" aria-labelledby={`verify-${pharmacy.id}`} data-testid="pharmacy-verification">
      <div className="flex flex-wrap items-center gap-3">
        <h4 id={`verify-${pharmacy.id}`} className="font-semibold">Protocol check</h4>
        {data && <span data-testid="verification-status" className={`rounded px-2 py-0.5 text-xs font-medium ${STATUS_WORDS[data.status].tone}`}>{STATUS_WORDS[data.status].text}</span>}
        <BusyButton variant="secondary" busy={run.isPending || data?.status === 'running'} busyLabel="Checking…" onClick={() => run.mutate({ id: pharmacy.id })}>
          {data ? 'Run the check again' : 'Run the protocol check'}
        </BusyButton>
      </div>
      <p className="text-slate-600">
        Checks this pharmacy against the pharmacy protocol from the service: signing both ways, one order per idempotency key, lookup, cancel, the catalog feed, signed
        callbacks, status names and response time. It sends one test order (never to be filled) and cancels it.
      </p>
      <ApiRefusal error={run.error} />
      {last.isError && <QueryError error={last.error} title="The last check could not be read." />}
      {data === null && <p className="text-slate-500">Never checked.</p>}
      {data && (
        <>
          <p className="text-slate-600">
            {data.status === 'running' ? `Started ${formatWhen(data.createdAt)}` : `Finished ${formatWhen(data.finishedAt)}`} against <span className="break-all font-mono">{data.baseUrl}</span>
          </p>
          {data.checks.length > 0 && (
            <ul className="space-y-1.5" aria-label="Checks">
              {data.checks.map((c) => (
                <li key={c.name} data-testid="verification-check" data-passed={c.passed} className="rounded border border-slate-100 px-3 py-2">
                  <p className="font-medium">
                    <span className={c.passed ? 'text-emerald-700' : 'text-red-700'}>{c.passed ? 'Passed' : 'Failed'}</span> {c.title}{' '}
                    <span className="font-mono text-xs text-slate-500">{c.name}</span>
                  </p>
                  <p className="break-words text-slate-600">Expected: {c.expected}</p>
                  <p className="break-words text-slate-800">Seen: {c.seen}</p>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
