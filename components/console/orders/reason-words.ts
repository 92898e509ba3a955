import { HOLD_RELEASED, reasonTitle } from '@/server/lib/pharmacy-reason-codes';
import type { OrderTimelineEntry } from './order-types';

/*
 * Reason codes in words (the pharmacy protocol's vocabulary, docs/pharmacy-protocol.md). A code no vocabulary
 * knows is "Other" with the pharmacy's own value, never hidden.
 */

// The pharmacy's answer to a cancel is also a note without a move (server/domain/orders/recall.ts), not a hold.
const RECALL_NOTES = new Set(['pharmacy_recalled', 'pharmacy_could_not_recall']);

/** Words for a timeline row's reason: a pharmacy's hold or its release, or a rejection; null where the code says it all. */
export function timelineReasonWords(entry: Pick<OrderTimelineEntry, 'reasonCode' | 'actorKind' | 'from' | 'to'>): string | null {
  const code = entry.reasonCode;
  if (!code) return null;
  const hold = entry.actorKind === 'pharmacy' && entry.from === entry.to && !RECALL_NOTES.has(code);
  if (hold) return code === HOLD_RELEASED ? 'Hold released' : `On hold: ${reasonTitle(code)}`;
  return entry.to === 'rejected' ? reasonTitle(code) : null;
}

export { reasonTitle };
