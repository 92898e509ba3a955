'use client';

import { ShortHash } from '../intake/intake-ui';
import { formatDateTime } from '../ui/format';
import { useNames } from '../orders/order-data';
import { Named } from '../orders/order-ui';
import { flowStatusWords } from '../ui/status-words';
import type { Flow, FlowVersionSummary } from './flow-types';

const TONE: Record<string, string> = {
  published: 'bg-emerald-100 text-emerald-800',
  pending_approval: 'bg-amber-100 text-amber-900',
  active: 'bg-emerald-100 text-emerald-800',
  archived: 'bg-slate-200 text-slate-700',
};

export function FlowStatusBadge({ status }: { status: string }) {
  return (
    <span data-testid="flow-status" data-status={status} className={`rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONE[status] ?? 'bg-slate-100 text-slate-700'}`}>
      {flowStatusWords(status)}
    </span>
  );
}

/** Where the draft stands against the version patients see: what pressing Publish will do. */
export function publishOutcome(flow: Flow): { kind: 'copy' | 'clinical' | 'first' | 'unknown'; text: string } {
  const draft = flow.draftClinicalPlaneHash;
  const active = flow.activeVersion?.clinicalPlaneHash;
  if (!draft) return { kind: 'unknown', text: 'The draft’s clinical plane cannot be computed yet (its questionnaire has no approved version); publishing will say what is missing.' };
  if (!active) return { kind: 'first', text: 'First publication: a provider must approve the clinical steps before patients see this flow.' };
  if (draft === active) return { kind: 'copy', text: 'Copy-only change: publishes at once (the clinical steps are the ones a provider already approved).' };
  return { kind: 'clinical', text: 'Clinical change: needs a provider. The version patients see stays live until a provider approves.' };
}

export function VersionLine({ label, version }: { label: string; version: FlowVersionSummary | null }) {
  return (
    <div className="min-w-0">
      <dt className="font-medium text-slate-500">{label}</dt>
      <dd className="text-slate-800">
        {version ? (
          <span className="flex flex-wrap items-center gap-2">
            <span>Version {version.number}</span>
            <FlowStatusBadge status={version.status} />
            <ShortHash hash={version.clinicalPlaneHash} />
            <span className="text-xs text-slate-500">
              {version.questionnaire.key} v{version.questionnaire.version}
            </span>
          </span>
        ) : (
          'None'
        )}
      </dd>
    </div>
  );
}

/** The versions, newest first: who approved the clinical plane and when each went live. */
export function FlowVersions({ versions }: { versions: readonly FlowVersionSummary[] }) {
  const names = useNames(versions.map((v) => v.approvedBy));
  if (versions.length === 0) return <p className="text-sm text-slate-500">Nothing published yet.</p>;
  return (
    <div role="region" aria-label="Versions" tabIndex={0} className="relative max-w-full overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600">
      <table className="min-w-full text-left text-sm" data-testid="flow-versions">
        <caption className="sr-only">Versions of this flow, newest first</caption>
        <thead className="text-xs text-slate-500 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-4">Version</th>
            <th scope="col" className="py-2 pr-4">Status</th>
            <th scope="col" className="py-2 pr-4">Clinical plane</th>
            <th scope="col" className="py-2 pr-4">Questionnaire</th>
            <th scope="col" className="py-2 pr-4">Approved</th>
            <th scope="col" className="py-2 pr-4">Published</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {versions.map((v) => (
            <tr key={v.id}>
              <td className="py-2 pr-4 whitespace-nowrap">{v.number}</td>
              <td className="py-2 pr-4">
                <FlowStatusBadge status={v.status} />
              </td>
              <td className="py-2 pr-4">
                <ShortHash hash={v.clinicalPlaneHash} />
              </td>
              <td className="py-2 pr-4 whitespace-nowrap">
                {v.questionnaire.key} v{v.questionnaire.version}
              </td>
              <td data-testid="version-approved" className="py-2 pr-4">
                {v.approvedAt ? (
                  <span className="inline-flex flex-wrap items-center gap-x-1">
                    <span className="whitespace-nowrap">{formatDateTime(v.approvedAt)}</span>
                    {v.approvedBy && (
                      <>
                        {' '}by <Named id={v.approvedBy} name={names.get(v.approvedBy)?.name} />
                      </>
                    )}
                  </span>
                ) : (
                  '—'
                )}
              </td>
              <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(v.publishedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
