import type { IntakeStatus, OrderStatus } from '@/db/schema';
import { DISQUALIFIED_MESSAGE } from '@/server/domain/intake/patient-outcome';

/**
 * Orders and submissions as the portal tells a patient about them (DESIGN decision 40): plain words, never the
 * machine's codes, a rule, a flag or a note. Each status says what it means and what happens next; the endings
 * that are not a delivery (rejected, cancelled) say what the clinic will do.
 */

export interface PatientWords {
  /** A few words for a badge or a list. */
  label: string;
  /** What happens next, or for an ending, what the clinic will do. */
  next: string;
}

const ORDER_WORDS: Record<OrderStatus, PatientWords> = {
  draft: { label: 'Being prepared', next: 'Your clinic is preparing your order. A licensed provider reviews it next.' },
  pending_approval: { label: 'Waiting for provider review', next: 'A licensed provider will review your order. Once it is approved it goes to the pharmacy.' },
  approved: { label: 'Approved', next: 'Your provider approved your order. It is being sent to the pharmacy.' },
  submitting: { label: 'Sending to the pharmacy', next: 'Your order is being sent to the pharmacy, which will confirm it.' },
  submitted: { label: 'At the pharmacy', next: 'The pharmacy has your order and will confirm it shortly.' },
  accepted: { label: 'Being filled', next: 'The pharmacy is preparing your medication. You will see tracking details here when it ships.' },
  shipped: { label: 'On its way', next: 'Your order has shipped. Follow it with the tracking link.' },
  delivered: { label: 'Delivered', next: 'Your order was delivered. If anything is missing or wrong, contact your clinic.' },
  rejected: {
    label: 'Needs attention',
    next: 'The pharmacy could not fill this order. Your clinic will send it to another pharmacy or contact you; there is nothing you need to do now.',
  },
  cancelled: { label: 'Cancelled', next: 'This order was cancelled and will not be sent. Your clinic will contact you if anything else is needed.' },
};

// Endings whose reason changes what the patient should be told.
const CANCELLED_BECAUSE: Record<string, string> = {
  declined_by_provider: 'After review, your provider decided this treatment is not right for you at this time. Your clinic will contact you about other options.',
  pharmacy_cancelled: 'The pharmacy cancelled this order. Your clinic will contact you about sending it again.',
};

/** An order's status in words; `reasonCode` is its last timeline entry's, which may change an ending's words. */
export function orderWords(status: OrderStatus, reasonCode: string | null = null): PatientWords {
  const words = ORDER_WORDS[status];
  if (status === 'cancelled' && reasonCode && CANCELLED_BECAUSE[reasonCode]) return { ...words, next: CANCELLED_BECAUSE[reasonCode] };
  return words;
}

/** Why an order went back to the provider, when the patient should know (their own change); null otherwise. */
export function timelineNote(reasonCode: string | null): string | null {
  if (reasonCode === 'shipping_state_changed') return 'You changed your shipping address to another state, so a provider licensed there reviews the order again.';
  return null;
}

const SUBMISSION_WORDS: Record<IntakeStatus, PatientWords> = {
  pending_review: { label: 'Waiting for review', next: 'A provider will review your answers and your clinic will contact you about the next steps.' },
  approved: { label: 'Approved', next: 'A provider approved your request. Your order is being prepared.' },
  disqualified: { label: 'Not available', next: `${DISQUALIFIED_MESSAGE} Your clinic can tell you about other options.` },
  rejected: { label: 'Not approved', next: 'A provider reviewed your answers and did not approve this treatment. Your clinic will contact you about other options.' },
};

export const submissionWords = (status: IntakeStatus): PatientWords => SUBMISSION_WORDS[status];

/** A tracking link the portal may show: http(s) only, never a `javascript:` or other scheme a pharmacy might send. */
export function safeTrackingUrl(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}
