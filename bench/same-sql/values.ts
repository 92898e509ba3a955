import { randomInt } from 'node:crypto';
import { STATS_SHARDS } from '@/server/domain/flows/runtime/counting';
import type { StatementId } from './statements';

/**
 * The values the reference server binds to each statement of bench/same-sql/statements.ts, in the order
 * the project binds them (the same placeholders, the same kinds of values: ids, timestamps, JSON, counters).
 */

/** What every statement of a run may need: the key's world and the run's own ids and times. */
export interface RunValues {
  key: string;
  tenant: string;
  live: boolean;
  flow: string;
  version: string;
  session: string;
  at: string;
  day: string;
}

export interface StepValues extends RunValues {
  stepId: string;
  held: Record<string, unknown>;
  eventId: string;
}

export interface SubmitValues extends RunValues {
  requestId: string;
  idempotencyKey: string;
  fingerprint: string;
  email: string;
  patient: { id: string; logId: string; first: string; last: string; dob: string; sex: string | null; state: string };
  submission: {
    id: string;
    questionnaireId: string;
    questionnaireKey: string;
    questionnaireVersion: number;
    answers: string;
    facts: string;
    eventIds: string[];
    noticeIds: string[];
    verdict: string;
    missing: string;
    hits: string;
    flags: string;
    certificate: string;
    reference: string;
  };
  released: string;
  response: string;
}

const shard = () => randomInt(STATS_SHARDS);
/** Two counts of one statement on the same flow-level row must name different shards (counting.ts). */
const otherShard = (s: number) => (s + 1 + randomInt(STATS_SHARDS - 1)) % STATS_SHARDS;

const event = (id: string, v: RunValues, type: string, data: unknown) => [id, v.tenant, v.live, type, JSON.stringify(data), v.at];
const count = (v: RunValues, mark: string, stepId: string, s: number) => [v.session, mark, v.at, v.tenant, v.live, v.flow, v.version, v.day, stepId, '', '', s];

export const values = {
  createSession: (v: RunValues & { eventId: string; expiresAt: string }) => [
    v.session, v.tenant, v.live, v.flow, v.version, v.key, null, null, 'open', null, v.expiresAt, v.at, v.at,
    ...event(v.eventId, v, 'flow.viewed', { flowId: v.flow, sessionId: v.session, flowVersionId: v.version }),
    ...count(v, 'session', '', shard()),
  ],
  holdStep: (v: StepValues) => [
    v.tenant, v.live, v.session, v.at,
    v.session, v.tenant, v.live, JSON.stringify({ [v.stepId]: v.held }), v.at,
    v.session, `saved:${v.stepId}`, v.at,
    ...event(v.eventId, v, 'step.completed', { flowId: v.flow, sessionId: v.session, stepId: v.stepId }),
    ...count(v, 'view', '', shard()),
    ...count(v, `completed:${v.stepId}`, v.stepId, shard()),
  ],
  heldSteps: (v: RunValues) => [v.tenant, v.live, v.session, 1],
  begin: () => [],
  claimIdempotency: (v: SubmitValues) => [`${v.tenant}:${v.live}:${v.idempotencyKey}`, v.requestId, v.tenant, v.live, v.idempotencyKey, v.fingerprint, v.key, v.at],
  sessionLocked: (v: RunValues) => [v.tenant, v.live, v.session, 1],
  patientByEmail: (v: SubmitValues) => [v.tenant, v.live, v.email.toLowerCase(), 1],
  insertPatient: (v: SubmitValues) => {
    const p = v.patient;
    return [
      p.logId, v.tenant, v.live, p.id, 'create', 'key', v.key, v.requestId, v.at,
      p.id, v.tenant, v.live, false, p.first, p.last, p.dob, p.sex, v.email, null, null, p.state, '[]', '[]', v.at, v.at,
    ];
  },
  insertSubmission: (v: SubmitValues) => {
    const s = v.submission;
    const ids = { flowId: v.flow, sessionId: v.session };
    const [created, qualified, sessionQualified, completed] = s.eventIds;
    return [
      s.id, v.tenant, v.live, s.answers, s.facts,
      ...event(created, v, 'intake.submission.created', { submissionId: s.id, verdict: s.verdict }),
      ...event(qualified, v, 'flow.qualified', { ...ids, submissionId: s.id, verdict: 'eligible' }),
      ...event(sessionQualified, v, 'flow.session.qualified', { ...ids, verdict: 'eligible' }),
      ...event(completed, v, 'flow.session.completed', { ...ids, verdict: 'eligible' }),
      // "Submission received", one notice per channel (DESIGN decision 41); the database queues each one's job.
      ...s.noticeIds.flatMap((id, i) => [id, v.tenant, v.live, 'submission', s.id, 'submission_received', i === 0 ? 'email' : 'sms', null, v.at, v.at]),
      s.id, v.tenant, v.live, s.questionnaireId, s.questionnaireKey, s.questionnaireVersion, v.patient.id, 'flow', 'pending_review', s.verdict,
      s.missing, s.hits, s.flags, s.certificate, v.key, v.flow, v.session, s.reference, v.at, v.at,
    ];
  },
  closeSession: (v: SubmitValues) => {
    const views = shard();
    return [
      'eligible', v.submission.id, v.at, v.at, v.tenant, v.live, v.session,
      v.released, v.at, v.tenant, v.live, v.session,
      ...count(v, 'view', '', views),
      v.session, 'qualified', v.at, v.tenant, v.live, v.flow, v.version, v.session, 'view', v.day, '', '', '', otherShard(views),
    ];
  },
  completeIdempotency: (v: SubmitValues) => ['done', null, 200, v.response, null, v.requestId],
  commit: () => [],
} satisfies Record<StatementId, (v: never) => unknown[]>;
