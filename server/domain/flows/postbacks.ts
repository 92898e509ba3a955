import { flowSessions, flowVersions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { AttemptOutcome } from '@/server/domain/webhooks/deliver';
import type { DeliveryOptions } from '@/server/domain/webhooks/options';
import { nextAttemptDelay } from '@/server/domain/webhooks/retry';
import { sendSigned } from '@/server/domain/webhooks/send';
import { now } from '@/server/lib/clock';
import { logger } from '@/server/lib/logger';
import { checkoutKey } from './checkout-token';

/** The outbox kind of a conversion postback (one job per URL and eligible run). */
export const POSTBACK_JOB = 'flow.postback';

/** What the job carries: the destination and ids, never anything the patient typed. */
export interface PostbackPayload {
  url: string;
  flowId: string;
  sessionId: string;
  submissionId: string;
  occurredAt: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * One attempt of one conversion postback: `{type: 'flow.qualified', flowId, sessionId, submissionId,
 * occurredAt}`, POSTed under the webhook URL rules (https, no inside address, pinned DNS, no redirects) and
 * retried on the webhook schedule. Signed Standard Webhooks-style with the flow's checkout secret when the
 * session's version has one; unsigned (webhook-id and webhook-timestamp only) when it has none, since no
 * other key is shared with the receiver. The `webhook-id` is the job's id: the same on every retry, so a
 * receiver can dedupe. Only a session that is still an eligible run of that flow is ever reported.
 */
export async function attemptPostback(db: Db, scope: Scope, job: { id: string; attempts: number; payload: Record<string, unknown> }, opts: DeliveryOptions): Promise<AttemptOutcome> {
  const p: PostbackPayload = { url: str(job.payload.url), flowId: str(job.payload.flowId), sessionId: str(job.payload.sessionId), submissionId: str(job.payload.submissionId), occurredAt: str(job.payload.occurredAt) };
  const s = scoped(db, scope);
  const session = p.sessionId ? await s.get(flowSessions, p.sessionId) : undefined;
  if (!session || session.flowId !== p.flowId || session.verdict !== 'eligible' || (session.submissionId && session.submissionId !== p.submissionId)) {
    logger.warn({ jobId: job.id, flowId: p.flowId }, 'conversion postback dropped: not an eligible run of this flow');
    return { kind: 'done' };
  }
  const version = await s.get(flowVersions, session.flowVersionId);
  const secret = version?.document.settings.checkout?.secret;
  const body = JSON.stringify({ type: 'flow.qualified', flowId: p.flowId, sessionId: p.sessionId, submissionId: p.submissionId, occurredAt: p.occurredAt });
  const result = await sendSigned(
    { url: p.url, secret: secret ? checkoutKey(secret) : null, eventId: job.id, body, userAgent: 'FulfillmentRail-Postbacks/1' },
    { timeoutMs: opts.timeoutMs, policy: opts.policy },
  );
  if (result.ok) return { kind: 'done' };
  const delay = result.gone ? null : nextAttemptDelay(opts.schedule, job.attempts, result.retryAfterMs);
  if (delay === null) {
    logger.warn({ jobId: job.id, flowId: p.flowId, attempts: job.attempts, err: result.error }, 'conversion postback given up');
    return { kind: 'done' };
  }
  return { kind: 'retry', at: new Date(now().getTime() + delay), error: result.error };
}
