'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/web/trpc/client';
import { CopyButton } from '../ui/copy-button';
import { Loading, QueryError } from '../ui/query-state';
import { stepWords, type GoLiveChecklist as Checklist, type GoLiveStep } from './go-live-words';

function Marker({ step, index, next }: { step: GoLiveStep; index: number; next: boolean }) {
  if (step.done) {
    return (
      <span aria-hidden="true" className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-white">
        <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          <path d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" />
        </svg>
      </span>
    );
  }
  return (
    <span
      aria-hidden="true"
      className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full border-2 text-sm font-semibold ${next ? 'border-indigo-600 bg-indigo-600 text-white' : 'border-slate-300 bg-white text-slate-600'}`}
    >
      {index + 1}
    </span>
  );
}

function StepItem({ step, index, checklist }: { step: GoLiveStep; index: number; checklist: Checklist }) {
  const words = stepWords(step, checklist);
  const next = checklist.next === step.id;
  const headingId = `go-live-${step.id}`;
  return (
    <li
      data-testid="go-live-step"
      data-step={step.id}
      data-done={step.done ? 'true' : 'false'}
      aria-labelledby={headingId}
      aria-current={next ? 'step' : undefined}
      className={`flex min-w-0 gap-3 rounded-lg border p-4 ${next ? 'border-indigo-300 bg-indigo-50' : 'border-slate-200 bg-white'}`}
    >
      <Marker step={step} index={index} next={next} />
      <div className="min-w-0 flex-1 space-y-1.5">
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <h2 id={headingId} className="font-semibold text-slate-900">
            {words.title}
          </h2>
          <span data-testid="go-live-state" className={`rounded px-2 py-0.5 text-xs font-medium ${step.done ? 'bg-emerald-100 text-emerald-800' : next ? 'bg-indigo-100 text-indigo-800' : 'bg-slate-100 text-slate-700'}`}>
            {step.done ? 'Done' : next ? 'Next' : 'To do'}
          </span>
        </div>
        <p data-testid="go-live-text" className="break-words text-sm text-slate-700">
          {words.text}
        </p>
        {words.caution && (
          <p data-testid="go-live-caution" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-950">
            {words.caution}
          </p>
        )}
        {step.status !== 'blocked' && (
          <Link href={step.href} className="inline-block text-sm font-medium text-indigo-700 underline">
            {words.action}
            <span className="sr-only"> ({words.title.toLowerCase()})</span>
          </Link>
        )}
      </div>
    </li>
  );
}

/**
 * The "Go live" checklist of the console's mode (overview.goLive): seven steps in the order a new clinic
 * takes them, each done or what is missing, the next one marked, with the page where it is done; once all
 * are done, the address of the live hosted page.
 */
export function GoLiveChecklist() {
  const trpc = useTRPC();
  const checklist = useQuery({ ...trpc.overview.goLive.queryOptions(), refetchOnWindowFocus: true });
  if (checklist.isPending) return <Loading label="Checking what is set up…" />;
  if (checklist.isError) return <QueryError error={checklist.error} title="The checklist could not be read." />;
  const c = checklist.data;
  const total = c.steps.length;
  const next = c.steps.find((s) => s.id === c.next);
  return (
    <div className="space-y-5">
      <div className="space-y-2">
        <p data-testid="go-live-progress" className="text-sm font-medium text-slate-800">
          {c.doneCount} of {total} steps done{next ? `. Next: ${stepWords(next, c).title.toLowerCase()}.` : '.'}
        </p>
        <div className="h-2 w-full overflow-hidden rounded-full bg-slate-200" role="progressbar" aria-label="Steps done" aria-valuemin={0} aria-valuemax={total} aria-valuenow={c.doneCount}>
          <div className="h-full rounded-full bg-emerald-600" style={{ width: `${(100 * c.doneCount) / total}%` }} />
        </div>
      </div>
      {c.complete && c.hostedPageUrl && (
        <div data-testid="go-live-complete" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-950">
          <p className="font-semibold">{c.mode === 'live' ? 'Live: patients can start the flow now.' : 'Every step is done in sandbox. Set up live mode the same way to take real patients.'}</p>
          <p className="flex min-w-0 flex-wrap items-center gap-2">
            <span>Hosted page:</span>
            <a data-testid="go-live-hosted-url" href={c.hostedPageUrl} target="_blank" rel="noreferrer" className="min-w-0 break-all font-mono text-xs text-indigo-800 underline">
              {c.hostedPageUrl}
            </a>
            <CopyButton value={c.hostedPageUrl} label="Copy the hosted page address" />
          </p>
          <p>To show the flow inside your own site, paste the snippet from the Embed keys page.</p>
        </div>
      )}
      <ol className="space-y-3" aria-label="Go-live steps">
        {c.steps.map((step, i) => (
          <StepItem key={step.id} step={step} index={i} checklist={c} />
        ))}
      </ol>
    </div>
  );
}
