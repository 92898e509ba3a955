import type { Scope } from '@/server/db/scoped';
import type { Tx } from '@/server/db/types';
import type { FlowDocumentShape } from '@/server/lib/flow-shapes';

/** What submit knows of an eligible run when it hands off to the clinic's store (DESIGN decision 28). */
export interface HandoffRun {
  flowId: string;
  sessionId: string;
  submissionId: string;
}

/**
 * The store address with a signed, expiring `fr_token`, or null without the `flow_checkout` flag or a
 * checkout setting. Placeholder until the checkout work lands: always null.
 */
export function checkoutUrlFor(_doc: FlowDocumentShape, _features: { flow_checkout?: boolean }, _run: HandoffRun, _at: Date): string | null {
  return null;
}

/**
 * Queues the flow's conversion postbacks for an eligible run through the outbox, in the submit transaction.
 * Placeholder until the checkout work lands: queues nothing.
 */
export async function enqueueConversionPostbacks(_tx: Tx, _scope: Scope, _doc: FlowDocumentShape, _run: HandoffRun): Promise<void> {}
