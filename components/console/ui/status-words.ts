/*
 * Every status the console shows, in words (issue 50 item 5): a page never prints an API token such as
 * `pending_approval`. One map per area, keyed by the API's value, so a new status fails type-checking here
 * rather than reaching a page raw. Lower case, for badges and sentences; `capitalized` for labels and options.
 * No React and no server imports: the pages, the unit test and the Playwright scan read the same words.
 */

type OrderStatus = 'draft' | 'pending_approval' | 'approved' | 'submitting' | 'submitted' | 'accepted' | 'shipped' | 'delivered' | 'rejected' | 'cancelled';
type SubmissionStatus = 'pending_review' | 'disqualified' | 'approved' | 'rejected';
type SubmissionSource = 'in_app' | 'public' | 'hosted' | 'flow';
type FlowStatus = 'active' | 'archived' | 'pending_approval' | 'published' | 'superseded' | 'withdrawn';
type DeliveryStatus = 'pending' | 'failed' | 'delivered' | 'dead';

export const ORDER_STATUS_WORDS: Record<OrderStatus, string> = {
  draft: 'draft',
  pending_approval: 'awaiting approval',
  approved: 'approved',
  submitting: 'sending to the pharmacy',
  submitted: 'submitted',
  accepted: 'accepted',
  shipped: 'shipped',
  delivered: 'delivered',
  rejected: 'rejected',
  cancelled: 'cancelled',
};

export const SUBMISSION_STATUS_WORDS: Record<SubmissionStatus, string> = {
  pending_review: 'pending review',
  disqualified: 'disqualified',
  approved: 'approved',
  rejected: 'rejected',
};

/** How a submission arrived, after "via": "Received … via a flow". */
export const SUBMISSION_SOURCE_WORDS: Record<SubmissionSource, string> = {
  in_app: 'the API',
  public: 'public intake',
  hosted: 'a hosted link',
  flow: 'a flow',
};

/** A flow's state and its versions' (one badge shows both). */
export const FLOW_STATUS_WORDS: Record<FlowStatus, string> = {
  active: 'active',
  archived: 'archived',
  pending_approval: 'awaiting approval',
  published: 'published',
  superseded: 'superseded',
  withdrawn: 'withdrawn',
};

/** A webhook delivery's state: `dead` is the retry schedule exhausted. */
export const DELIVERY_STATUS_WORDS: Record<DeliveryStatus, string> = {
  pending: 'pending',
  failed: 'failed, retrying',
  delivered: 'delivered',
  dead: 'gave up',
};

/**
 * The other statuses pages show in a plain badge (catalogs, pharmacies, webhook endpoints, products, protocols,
 * embed keys): single words already, listed so a badge never falls back to a token.
 */
const OTHER_STATUS_WORDS: Record<string, string> = {
  pending: 'pending',
  approved: 'approved',
  rejected: 'rejected',
  superseded: 'superseded',
  enabled: 'enabled',
  disabled: 'disabled',
  active: 'active',
  inactive: 'inactive',
  revoked: 'revoked',
};

/** Every status token of the console's areas that is not a word by itself: what a page must never show. */
export const STATUS_TOKENS: readonly string[] = [
  ...new Set(
    [ORDER_STATUS_WORDS, SUBMISSION_STATUS_WORDS, SUBMISSION_SOURCE_WORDS, FLOW_STATUS_WORDS, DELIVERY_STATUS_WORDS]
      .flatMap((m) => Object.keys(m))
      .concat(['past_due', 'identity_mismatch'])
      .filter((k) => k.includes('_')),
  ),
];

/** A status of any area in words; an unknown one still reads as words (underscores become spaces), never as a token. */
export function statusWords(status: string): string {
  return OTHER_STATUS_WORDS[status] ?? status.replace(/_/g, ' ');
}

export const orderStatusWords = (s: OrderStatus) => ORDER_STATUS_WORDS[s] ?? statusWords(s);
export const submissionStatusWords = (s: SubmissionStatus) => SUBMISSION_STATUS_WORDS[s] ?? statusWords(s);
export const flowStatusWords = (s: string) => FLOW_STATUS_WORDS[s as FlowStatus] ?? statusWords(s);
export const deliveryStatusWords = (s: string) => DELIVERY_STATUS_WORDS[s as DeliveryStatus] ?? statusWords(s);

/** "awaiting approval" → "Awaiting approval", for labels, options and table headers. */
export const capitalized = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/**
 * Why an order came back to the approval queue (the reason code of its return), for the queue's rows. A code not
 * listed here is shown as it is.
 */
export const APPROVAL_RETURN_WORDS: Record<string, string> = {
  shipping_state_changed: 'the patient changed their shipping address to another state in the patient portal',
  patient_changed_since_approval: "the patient's identity or state changed since the last approval",
  items_changed_since_approval: 'its prescription lines changed since the last approval',
  approver_not_authorized: 'the approving provider may no longer approve orders',
  approver_not_licensed: "the approving provider is not licensed in the patient's current state",
  approval_snapshot_missing: 'nothing recorded what was approved',
};
