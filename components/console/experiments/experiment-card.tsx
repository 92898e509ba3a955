'use client';

import { useMutation } from '@tanstack/react-query';
import Link from 'next/link';
import { useId, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, formatWhen } from '../catalog/catalog-ui';
import { QueryError } from '../ui/query-state';
import { ArmResultsChart } from './arm-results-chart';
import type { Experiment } from './experiment-types';
import { analysisSentence, experimentWarnings, suggestedWinner, upliftText } from './experiment-words';

const WARNING_TONE = { srm: 'border-red-300 bg-red-50 text-red-900', data: 'border-amber-300 bg-amber-50 text-amber-950' };

/** One experiment: its split and status, results per arm, the analysis in words, and stop / fold-in. */
export function ExperimentCard({ experiment: e, canManage, onChanged }: { experiment: Experiment; canManage: boolean; onChanged: () => Promise<unknown> }) {
  const id = useId();
  const trpc = useTRPC();
  const [winner, setWinner] = useState<'control' | 'variant'>(suggestedWinner(e.analysis));
  const stop = useMutation(trpc.experiments.stop.mutationOptions({ onSuccess: onChanged }));
  const foldIn = useMutation(trpc.experiments.foldIn.mutationOptions({ onSuccess: onChanged }));
  const running = e.status === 'running';
  const warnings = experimentWarnings(e);

  return (
    <article aria-labelledby={`${id}-name`} data-testid="experiment" data-status={e.status} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4">
      <header className="flex flex-wrap items-baseline gap-3">
        <h2 id={`${id}-name`} className="text-lg font-semibold break-words">
          {e.name}
        </h2>
        <span data-testid="experiment-status" className={`rounded px-2 py-0.5 text-xs font-medium ${running ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-200 text-slate-700'}`}>
          {running ? 'Running' : 'Stopped'}
        </span>
        <span className="text-sm text-slate-600">
          {100 - e.splitPct}% control / {e.splitPct}% variant · started {formatWhen(e.startedAt)}
          {e.stoppedAt && ` · stopped ${formatWhen(e.stoppedAt)}`}
        </span>
      </header>

      {warnings.map((w) => (
        <p key={w.kind} role="alert" data-testid={`warning-${w.kind}`} className={`rounded-md border px-3 py-2 text-sm ${WARNING_TONE[w.kind]}`}>
          {w.text}
        </p>
      ))}

      <div className="grid gap-4 lg:grid-cols-2">
        <ArmResultsChart results={e.results} />
        <div className="space-y-2 text-sm">
          <p data-testid="analysis-sentence" className="font-medium text-slate-900">
            {analysisSentence(e.analysis)}
          </p>
          <p data-testid="analysis-uplift">{upliftText(e.analysis)}</p>
          <p className="text-slate-600">
            Expected loss is the qualify rate you would give up, on average, if you ship that arm and the other is in fact better (control: {(e.analysis.expectedLoss.control * 100).toFixed(1)} pp).
          </p>
          <p className="text-slate-600">The variant changes {e.overrides.length === 1 ? '1 thing' : `${e.overrides.length} things`}: {e.overrides.map((o) => o.stepId).join(', ') || 'nothing'}.</p>
        </div>
      </div>

      {running && canManage && (
        <div className="flex flex-wrap items-end gap-3 border-t border-slate-200 pt-3">
          <div>
            <label htmlFor={`${id}-winner`} className="block text-sm font-medium text-slate-700">
              Winner
            </label>
            <select
              id={`${id}-winner`}
              value={winner}
              onChange={(ev) => setWinner(ev.target.value as 'control' | 'variant')}
              className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm"
            >
              <option value="control">Control</option>
              <option value="variant">Variant</option>
            </select>
          </div>
          <BusyButton busy={stop.isPending} busyLabel="Stopping…" onClick={() => stop.mutate({ expId: e.id, winnerVariant: winner })}>
            Stop experiment
          </BusyButton>
          <span className="text-sm text-slate-600">New sessions then get the control; the winner is recorded, nothing is promoted.</span>
        </div>
      )}
      {stop.isError && <QueryError error={stop.error} title="The experiment was not stopped." />}

      {!running && (
        <div className="space-y-2 border-t border-slate-200 pt-3 text-sm">
          <p data-testid="experiment-winner">Winner recorded: {e.winnerVariant ? (e.winnerVariant === 'variant' ? 'Variant' : 'Control') : 'none'}.</p>
          {e.foldedInAt && (
            <p data-testid="folded-in" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-900">
              The variant was copied into the draft ({formatWhen(e.foldedInAt)}).{' '}
              <Link href={`/flows/${e.flowId}`} className="font-semibold underline">
                Open the flow editor to publish it
              </Link>
            </p>
          )}
          {canManage && (
            <div className="flex flex-wrap items-center gap-3">
              <BusyButton variant="secondary" busy={foldIn.isPending} busyLabel="Copying…" onClick={() => foldIn.mutate({ expId: e.id })}>
                {e.foldedInAt ? 'Fold the variant in again' : 'Fold the variant into the draft'}
              </BusyButton>
              <span className="text-slate-600">Copies the variant&apos;s overrides into the draft; publish it from the editor (a copy-only change goes live at once).</span>
            </div>
          )}
          {foldIn.isError && <QueryError error={foldIn.error} title="The variant was not folded in." />}
        </div>
      )}
    </article>
  );
}
