'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, card } from '../catalog/catalog-ui';
import { formatDateTime } from '../ui/format';
import { RuleRef, SubmissionStatusBadge, VerdictBadge, versionOf } from './intake-submission-list';
import { PersonPanel } from './submission-person';
import { SandboxSubmissionNote } from './submission-sandbox-note';
import { SUBMISSION_SOURCE_WORDS, submissionStatusWords } from '../ui/status-words';
import { HELD_SUBMISSION } from './submission-query';
import { IdentityPanel } from '@/components/intake/identity-panel';
import { IdChip } from '../ui/copy-button';
import type { ConsoleSubmission } from './intake-submission-types';
import { SubmissionReview } from './intake-submission-review';
import { useNames } from '../orders/order-data';
import { Loading, QueryError } from '../ui/query-state';
import type { QItem, QuestionnaireVersion } from './questionnaire-types';

/** An answer as the patient chose it: option labels for choices, yes/no, the unit beside a number. */
function answerText(item: QItem | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  const label = (v: unknown) => item?.options?.find((o) => o.value === v)?.label ?? String(v);
  if (Array.isArray(value)) return value.map(label).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number' && item?.unit) return `${value} ${item.unit}`;
  return typeof value === 'object' ? JSON.stringify(value) : label(value);
}

/**
 * The answers next to their questions, read only when the reviewer asks: each read of them is a read of
 * the patient's record and goes to the patient's access log, so the page says so before the click.
 */
function Answers({ id, version, readsPatients }: { id: string; version: QuestionnaireVersion | undefined; readsPatients: boolean }) {
  const trpc = useTRPC();
  const [asked, setAsked] = useState(false);
  const detail = useQuery({ ...trpc.intake.getSubmission.queryOptions({ id }), enabled: asked, staleTime: Infinity, gcTime: 0 });
  if (!readsPatients) return <p className="text-sm text-slate-600">Your role does not include reading patient records, so the answers are not shown.</p>;
  if (!asked) {
    return (
      <div className="space-y-2">
        <p id={`answers-note-${id}`} className="text-sm text-slate-600">The answers are the patient’s health information: showing them is recorded in the patient’s access log under your name.</p>
        <BusyButton variant="secondary" aria-describedby={`answers-note-${id}`} onClick={() => setAsked(true)}>Show answers</BusyButton>
      </div>
    );
  }
  if (detail.isPending) return <Loading label="Reading the answers…" />;
  if (detail.isError) return <QueryError error={detail.error} title="The answers could not be read." />;
  const answers = detail.data.answers ?? {};
  const items = version?.document.items ?? [];
  const known = new Set(items.map((i) => i.linkId));
  const extra = Object.keys(answers).filter((k) => !known.has(k));
  return (
    <div className="space-y-3">
      <p data-testid="answers-logged" role="status" className="text-sm text-slate-600">This read was recorded in the patient’s access log.</p>
      {detail.data.reviewNote && <p className="text-sm break-words">Review note: “{detail.data.reviewNote}”</p>}
      <dl data-testid="submission-answers" className="divide-y divide-slate-100 text-sm">
        {items.map((item) => (
          <div key={item.linkId} data-testid="answer-row" className="grid gap-1 py-2 sm:grid-cols-2 sm:gap-4">
            <dt className="break-words text-slate-700">{item.text}</dt>
            <dd className={`break-words ${item.linkId in answers ? 'font-medium text-slate-900' : 'text-slate-500'}`}>
              {item.linkId in answers ? answerText(item, answers[item.linkId]) : 'Not answered (or not asked)'}
            </dd>
          </div>
        ))}
        {extra.map((k) => (
          <div key={k} className="grid gap-1 py-2 sm:grid-cols-2 sm:gap-4">
            <dt className="font-mono text-xs break-all text-slate-700">{k}</dt>
            <dd className="break-words">{answerText(undefined, answers[k])}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The questionnaire and flow versions answered, when it came, and which rules matched, in words. */
function EngineFacts({ s, version }: { s: ConsoleSubmission; version: QuestionnaireVersion | undefined }) {
  const names = useNames([s.reviewedBy]);
  return (
    <section aria-labelledby="facts-heading" className={`${card} space-y-3 text-sm`}>
      <h2 id="facts-heading" className="text-lg font-semibold">What the engine decided</h2>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-500">Questionnaire</dt>
        <dd data-testid="submission-questionnaire" className="break-words">
          {s.questionnaireTitle ?? version?.title ?? s.questionnaireKey}{' '}
          <Link href={`/intake/questionnaires/${s.questionnaireKey}?version=${s.questionnaireVersion}`} className="text-indigo-700 underline">version {s.questionnaireVersion}</Link>
        </dd>
        {s.flow && (
          <>
            <dt className="font-medium text-slate-500">Flow</dt>
            <dd data-testid="submission-flow" className="break-words">
              <Link href={`/flows/${s.flow.id}`} className="text-indigo-700 underline">{s.flow.name}</Link> version {s.flow.versionNumber}
            </dd>
          </>
        )}
        <dt className="font-medium text-slate-500">Received</dt>
        <dd>{formatDateTime(s.createdAt)} via {SUBMISSION_SOURCE_WORDS[s.source]}</dd>
        {s.reference && (
          <>
            <dt className="font-medium text-slate-500">Patient reference</dt>
            <dd className="font-mono" data-testid="submission-reference">{s.reference}</dd>
          </>
        )}
        {s.missing.length > 0 && (
          <>
            <dt className="font-medium text-slate-500">Unanswered</dt>
            <dd className="break-words">{s.missing.map((m) => version?.document.items.find((i) => i.linkId === m)?.text ?? m).join('; ')}</dd>
          </>
        )}
        {s.reviewedAt && (
          <>
            <dt className="font-medium text-slate-500">Reviewed</dt>
            <dd>{formatDateTime(s.reviewedAt)}{s.reviewedBy && <> by {names.get(s.reviewedBy)?.name ?? <code className="font-mono text-xs">{s.reviewedBy}</code>}</>}</dd>
          </>
        )}
        {s.orderId && (
          <>
            <dt className="font-medium text-slate-500">Order</dt>
            <dd><Link href={`/orders/${s.orderId}`} className="font-mono text-xs text-indigo-700 hover:underline">{s.orderId}</Link></dd>
          </>
        )}
      </dl>
      <div className="space-y-1">
        <h3 className="font-semibold">Rules matched</h3>
        {s.hits.length + s.flags.length === 0 ? (
          <p className="text-slate-600">None.</p>
        ) : (
          <ul className="space-y-1">
            {s.hits.map((r) => (
              <li key={`h-${r}`} data-testid="detail-hit"><span className="font-medium text-red-800">Disqualifies: </span><RuleRef id={r} version={version} /></li>
            ))}
            {s.flags.map((r) => (
              <li key={`f-${r}`} data-testid="detail-flag"><span className="font-medium text-amber-900">Flag for review: </span><RuleRef id={r} version={version} /></li>
            ))}
          </ul>
        )}
        {s.patientMessages.length > 0 && <p className="text-slate-600 break-words">The patient was told: {s.patientMessages.map((m) => `“${m}”`).join(' ')}</p>}
      </div>
    </section>
  );
}

/**
 * One submission: the person it is about (a logged read), the engine's verdict and what it matched, the
 * answers on request, and the review. The record is read once per page view: it is held (never refetched
 * on focus), and a decision updates it in place, so the access log gets one entry per view.
 */
export function IntakeSubmissionDetail({ id, readsPatients, isProvider }: { id: string; readsPatients: boolean; isProvider: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const sub = useQuery({ ...trpc.intake.submissionForReview.queryOptions({ id }), ...HELD_SUBMISSION });
  const versions = useQuery({ ...trpc.intake.questionnaireVersions.queryOptions({}), staleTime: 60_000 });
  // Once decided here, the review keeps its outcome (and the order link) on screen as the record updates.
  const [decided, setDecided] = useState(false);
  if (sub.isPending) return <Loading label="Loading the submission…" />;
  if (sub.isError) return <QueryError error={sub.error} title="The submission could not be read." />;
  const s = sub.data;
  const version = versionOf(versions.data, s);
  const reviewed = (r: Pick<ConsoleSubmission, 'status' | 'orderId' | 'reviewedBy' | 'reviewedAt'>) => {
    setDecided(true);
    qc.setQueryData(trpc.intake.submissionForReview.queryKey({ id }), (old) => old && { ...old, status: r.status, orderId: r.orderId, reviewedBy: r.reviewedBy, reviewedAt: r.reviewedAt });
    return qc.invalidateQueries({ queryKey: trpc.intake.reviewQueue.queryKey() });
  };
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Intake submission</h1>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          {s.person && <span data-testid="submission-person-name" className="text-base font-medium">{s.person.firstName} {s.person.lastName}</span>}
          <VerdictBadge verdict={s.verdict} />
          <SubmissionStatusBadge status={s.status} />
          <IdChip id={s.id} />
        </p>
      </div>
      <SandboxSubmissionNote s={s} />
      <PersonPanel s={s} />
      {/* A flagged patient match: both records side by side and the two ways out, beside the person. */}
      <IdentityPanel id={s.id} />
      <EngineFacts s={s} version={version} />
      <section aria-labelledby="answers-heading" className={`${card} space-y-3`}>
        <h2 id="answers-heading" className="text-lg font-semibold">Answers</h2>
        <Answers id={s.id} version={version} readsPatients={readsPatients} />
      </section>
      <section aria-labelledby="review-heading" className={`${card} space-y-3`}>
        <h2 id="review-heading" className="text-lg font-semibold">Review</h2>
        {s.status === 'pending_review' || decided ? (
          <SubmissionReview s={s} isProvider={isProvider} onDone={reviewed} />
        ) : (
          <p data-testid="review-closed" className="text-sm text-slate-700">
            {s.status === 'disqualified' ? 'Disqualified by the questionnaire’s rules: it cannot be approved.' : `Already reviewed: ${submissionStatusWords(s.status)}.`}
          </p>
        )}
      </section>
    </div>
  );
}
