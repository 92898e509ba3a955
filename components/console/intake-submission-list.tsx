'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC, type Mode } from '@/lib/trpc/client';
import { BusyButton, SelectField } from './catalog-ui';
import { TableScroll } from './data-table';
import { formatDateTime } from './format';
import { PAGE_SIZE, SUBMISSION_FILTERS, type Submission, type SubmissionFilter } from './intake-submission-types';
import { Loading, QueryError } from './query-state';
import type { QuestionnaireVersion, QRule } from './questionnaire-types';
import { itemIndex, ruleWords } from './questionnaire-words';


const VERDICT_TONE: Record<Submission['verdict'], string> = {
  eligible: 'bg-emerald-100 text-emerald-800',
  disqualified: 'bg-red-100 text-red-800',
  incomplete: 'bg-amber-100 text-amber-900',
};
const STATUS_TONE: Record<Submission['status'], string> = {
  pending_review: 'bg-amber-100 text-amber-900',
  disqualified: 'bg-red-100 text-red-800',
  approved: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-slate-200 text-slate-700',
};

export function VerdictBadge({ verdict }: { verdict: Submission['verdict'] }) {
  return <span data-testid="submission-verdict" className={`rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${VERDICT_TONE[verdict]}`}>{verdict}</span>;
}
export function SubmissionStatusBadge({ status }: { status: Submission['status'] }) {
  return <span data-testid="submission-status" className={`rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS_TONE[status]}`}>{status.replace('_', ' ')}</span>;
}

/** The questionnaire version a submission answered, from the library's versions (undefined while they load). */
export function versionOf(versions: readonly QuestionnaireVersion[] | undefined, s: { questionnaireKey: string; questionnaireVersion: number }) {
  return versions?.find((v) => v.key === s.questionnaireKey && v.version === s.questionnaireVersion);
}

/** A matched rule: its id, and in words what it says when the questionnaire version is known. */
export function RuleRef({ id, version }: { id: string; version: QuestionnaireVersion | undefined }) {
  const rule: QRule | undefined = version?.document.rules.find((r) => r.id === id);
  return (
    <span className="break-words">
      <code className="font-mono text-xs">{id}</code>
      {rule && <span className="text-slate-600"> — {ruleWords(rule, itemIndex(version!.document.items))}</span>}
    </span>
  );
}

function Row({ s, version }: { s: Submission; version: QuestionnaireVersion | undefined }) {
  const matched = [...s.hits, ...s.flags];
  return (
    <tr data-testid="submission-row" data-submission-id={s.id} className="border-t border-slate-100 align-top">
      <td className="px-4 py-2">
        <Link href={`/intake/submissions/${s.id}`} prefetch={false} className="font-mono text-xs font-medium break-all text-indigo-700 hover:underline">{s.id}</Link>
      </td>
      <td className="px-4 py-2 whitespace-nowrap">{s.questionnaireKey} v{s.questionnaireVersion}</td>
      <td className="px-4 py-2"><VerdictBadge verdict={s.verdict} /></td>
      <td className="px-4 py-2"><SubmissionStatusBadge status={s.status} /></td>
      <td className="min-w-64 px-4 py-2">
        {matched.length === 0 ? (
          <span className="text-slate-500">None</span>
        ) : (
          <ul className="space-y-1">
            {s.hits.map((id) => (
              <li key={`h-${id}`} data-testid="submission-hit"><span className="font-medium text-red-800">Disqualifies: </span><RuleRef id={id} version={version} /></li>
            ))}
            {s.flags.map((id) => (
              <li key={`f-${id}`} data-testid="submission-flag"><span className="font-medium text-amber-900">Flag: </span><RuleRef id={id} version={version} /></li>
            ))}
          </ul>
        )}
      </td>
      <td className="px-4 py-2">
        <Link href={`/patients/${s.patientId}`} prefetch={false} className="font-mono text-xs break-all text-indigo-700 hover:underline">{s.patientId}</Link>
      </td>
      <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(s.createdAt)}</td>
    </tr>
  );
}

/**
 * The intake review queue: submissions newest first, by status (in the URL as ?status=, pending review by
 * default), with the engine's verdict and the rules matched, in words. No answers here: they are PHI and
 * are read, logged, only on a submission's page when the reviewer asks.
 */
export function IntakeSubmissionList({ status, mode }: { status: SubmissionFilter; mode: Mode }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [cursors, setCursors] = useState<string[]>([]);
  const sandbox = mode === 'sandbox' ? 'true' : 'false';
  const pages = useQueries({
    queries: [undefined, ...cursors].map((startingAfter) => trpc.intake.listSubmissions.queryOptions({ status, sandbox, limit: PAGE_SIZE, starting_after: startingAfter })),
  });
  const versions = useQuery({ ...trpc.console.questionnaireVersions.queryOptions({}), staleTime: 60_000 });
  const shown = pages.flatMap((p) => p.data ?? []);
  const failed = pages.find((p) => p.isError);
  const last = pages[pages.length - 1];
  const label = SUBMISSION_FILTERS.find((f) => f.value === status)?.label.toLowerCase() ?? status;
  return (
    <div className="space-y-4">
      <div className="max-w-xs">
        <SelectField label="Status" value={status} onChange={(e) => router.push(`/intake/submissions?${new URLSearchParams({ status: e.target.value })}`)}>
          {SUBMISSION_FILTERS.map((f) => (
            <option key={f.value} value={f.value}>{f.label}</option>
          ))}
        </SelectField>
      </div>
      {pages[0].isPending ? (
        <Loading label="Loading submissions…" />
      ) : (
        <TableScroll label="Intake submissions">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Intake submissions, {label}</caption>
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2">Submission</th>
                <th scope="col" className="px-4 py-2">Questionnaire</th>
                <th scope="col" className="px-4 py-2">Verdict</th>
                <th scope="col" className="px-4 py-2">Status</th>
                <th scope="col" className="px-4 py-2">Rules matched</th>
                <th scope="col" className="px-4 py-2">Patient</th>
                <th scope="col" className="px-4 py-2">Received</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((s) => (
                <Row key={s.id} s={s} version={versionOf(versions.data, s)} />
              ))}
              {pages[0].data?.length === 0 && (
                <tr><td colSpan={7} data-testid="submissions-empty" className="px-4 py-3 text-slate-500">No {status === 'all' ? '' : `${label} `}submissions in {mode}.</td></tr>
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
      {failed && <QueryError error={failed.error} title="Submissions could not be loaded." />}
      {last.data?.length === PAGE_SIZE && (
        <BusyButton variant="secondary" onClick={() => setCursors((c) => [...c, shown[shown.length - 1].id])}>Load more</BusyButton>
      )}
      {pages.length > 1 && last.isPending && <Loading label="Loading more submissions…" />}
    </div>
  );
}
