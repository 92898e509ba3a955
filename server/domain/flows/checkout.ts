import type { Scope } from '@/server/db/scoped';
import { enqueueJobs } from '@/server/db/outbox';
import type { Tx } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import type { FlowDocumentShape } from '@/server/domain/flows/shared/shapes';
import { signHandoffToken } from './checkout-token';
import { POSTBACK_JOB, type PostbackPayload } from './postbacks';

/** What submit knows of an eligible run when it hands off to the clinic's store (DESIGN decision 28). */
export interface HandoffRun {
  flowId: string;
  sessionId: string;
  submissionId: string;
}

/** The query parameter the store reads the session reference from. */
export const HANDOFF_PARAM = 'fr_token';

/**
 * The store address with a signed, expiring `fr_token` (checkout-token.ts), or null without the
 * `flow_checkout` flag or a checkout setting. The store's own query parameters are kept.
 */
export function checkoutUrlFor(doc: FlowDocumentShape, features: { flow_checkout?: boolean }, run: HandoffRun, at: Date): string | null {
  const checkout = doc.settings.checkout;
  if (!features.flow_checkout || !checkout) return null;
  const url = new URL(checkout.storeUrl);
  url.searchParams.set(HANDOFF_PARAM, signHandoffToken(checkout.secret, run, at));
  return url.toString();
}

/**
 * Queues the flow's conversion postbacks for an eligible run through the outbox, in the submit transaction:
 * one job per distinct URL, carrying ids only. The worker sends them (postbacks.ts), under the webhook URL
 * rules, and re-checks that the run was eligible.
 */
export async function enqueueConversionPostbacks(tx: Tx, scope: Scope, doc: FlowDocumentShape, run: HandoffRun): Promise<void> {
  const urls = [...new Set(doc.settings.conversionPostbacks ?? [])];
  const occurredAt = now().toISOString();
  await enqueueJobs(
    tx,
    scope,
    urls.map((url) => {
      const payload: PostbackPayload = { url, flowId: run.flowId, sessionId: run.sessionId, submissionId: run.submissionId, occurredAt };
      return { kind: POSTBACK_JOB, payload: { ...payload } };
    }),
  );
}
