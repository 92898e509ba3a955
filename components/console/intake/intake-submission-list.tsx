'use client';

import { useQueries, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useTRPC, type Mode } from '@/web/trpc/client';
import { BusyButton, card, SelectField } from '../catalog/catalog-ui';
import { IdChip } from '../ui/copy-button';
import { formatDateTime } from '../ui/format';
import { PAGE_SIZE, SUBMISSION_FILTERS, type QueuedSubmission, type Submission, type SubmissionFilter } from './intake-submission-types';
import { Loading, QueryError } from '../ui/query-state';
import type { QuestionnaireVersion, QRule } from './questionnaire-types';
import { itemIndex, ruleWords } from './questionnaire-words';
import { PLATFORM_FLAG_WORDS } from './submission-blocks';
import { submissionStatusWords } from '../ui/status-words';

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
  return (
    <span data-testid="submission-status" data-status={status} className={`rounded px-2 py-0.5 text-xs font-medium whitespace-nowrap ${STATUS_TONE[status]}`}>
      {submissionStatusWords(status)}
    </span>
  );
}

/** The questionnaire version a submission answered, from the library's versions (undefined while they load). */
export function versionOf(versions: readonly QuestionnaireVersion[] | undefined, s: { questionnaireKey: string; questionnaireVersion: number }) {
  return versions?.find((v) => v.key === s.questionnaireKey && v.version === s.questionnaireVersion);
}

/** A matched rule: its id, and in words what it says when the questionnaire version is known (platform flags: their words only). */
export function RuleRef({ id, version }: { id: string; version: QuestionnaireVersion | undefined }) {
  const rule: QRule | undefined = version?.document.rules.find((r) => r.id === id);
  // A platform flag is no rule of the clinic's: its words alone, never its token.
  if (!rule && PLATFORM_FLAG_WORDS[id]) return <span className="break-words">{PLATFORM_FLAG_WORDS[id]}</span>;
  const words = rule ? ruleWords(rule, itemIndex(version!.document.items)) : undefined;
  return (
    <span className="break-words">
      <code className="font-mono text-xs">{id}</code>
      {words && <span className="text-slate-600"> — {words}</span>}
    </span>
  );
}

/** The patient first (name, age, state), then what the engine found; the ids stay, small and copyable. */
function Row({ s, version }: { s: QueuedSubmission; version: QuestionnaireVersion | undefined }) {
  const p = s.patient;
  const matched = [...s.hits, ...s.flags];
  return (
    <li data-testid="submission-row" data-submission-id={s.id} className={`${card} grid min-w-0 gap-3 text-sm md:grid-cols-[minmax(0,16rem)_minmax(0,1fr)_auto]`}>
      <div className="min-w-0 space-y-1">
        <Link href={`/intake/submissions/${s.id}`} prefetch={false} data-testid="submission-patient" className="block text-base font-semibold break-words text-indigo-700 hover:underline">
          {p ? `${p.firstName} ${p.lastName}` : 'Patient not shown to your role'}
        </Link>
        {p && (
          <p data-testid="submission-patient-facts" className="text-slate-700">
            {p.ageAtSubmission !== null ? `${p.ageAtSubmission} years` : 'Age unknown'} · {p.state ?? 'state unknown'}
          </p>
        )}
        <p className="flex flex-wrap items-center gap-2">
          <VerdictBadge verdict={s.verdict} />
          <SubmissionStatusBadge status={s.status} />
          {s.identity?.status === 'mismatch' && <span data-testid="submission-identity" className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-red-800">identity to resolve</span>}
        </p>
      </div>
      <div className="min-w-0 space-y-1">
        <p className="break-words text-slate-700">{version?.title ?? s.questionnaireKey} · version {s.questionnaireVersion}</p>
        {matched.length === 0 ? (
          <p className="text-slate-500">No rules matched</p>
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
      </div>
      <div className="min-w-0 space-y-1 text-slate-600 md:text-right">
        <p>{formatDateTime(s.createdAt)}</p>
        <p className="text-xs">Submission <IdChip id={s.id} /></p>
        <p className="text-xs">Patient <IdChip id={s.patientId} /></p>
      </div>
    </li>
  );
}

/**
 * The intake review queue: submissions newest first, by status (in the URL as ?status=, pending review by
 * default), each led by its patient's name, age and state (a logged read), with the engine's verdict and
 * the rules matched, in words. Cards that lay out as rows on wide screens and stack on a phone. No answers
 * here: they are read, logged, only on a submission's page when the reviewer asks.
 */
export function IntakeSubmissionList({ status, mode }: { status: SubmissionFilter; mode: Mode }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [cursors, setCursors] = useState<string[]>([]);
  const sandbox = mode === 'sandbox' ? 'true' : 'false';
  const pages = useQueries({
    queries: [undefined, ...cursors].map((startingAfter) => trpc.intake.reviewQueue.queryOptions({ status, sandbox, limit: PAGE_SIZE, starting_after: startingAfter })),
  });
  const versions = useQuery({ ...trpc.intake.questionnaireVersions.queryOptions({}), staleTime: 60_000 });
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
        <>
          <h2 className="sr-only">Intake submissions, {label}</h2>
          {pages[0].data?.length === 0 ? (
            <p data-testid="submissions-empty" className="text-sm text-slate-500">No {status === 'all' ? '' : `${label} `}submissions in {mode}.</p>
          ) : (
            <ul aria-label={`Intake submissions, ${label}`} className="space-y-3">
              {shown.map((s) => (
                <Row key={s.id} s={s} version={versionOf(versions.data, s)} />
              ))}
            </ul>
          )}
        </>
      )}
      {failed && <QueryError error={failed.error} title="Submissions could not be loaded." />}
      {last.data?.length === PAGE_SIZE && (
        <BusyButton variant="secondary" onClick={() => setCursors((c) => [...c, shown[shown.length - 1].id])}>Load more</BusyButton>
      )}
      {pages.length > 1 && last.isPending && <Loading label="Loading more submissions…" />}
    </div>
  );
}
