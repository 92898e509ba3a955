import type { DunningStage } from './billing-types';

/**
 * What each dunning stage means for the clinic in plain words (DESIGN decision 29), shared by the Billing page
 * and the banner. `paused` lists what the API refuses in that stage; `next` is what happens at nextActionAt.
 */
export interface StageWords {
  label: string;
  summary: string;
  works: string[];
  paused: string[];
  next?: string;
}

const AI_AND_EXPERIMENTS = 'AI generation (flow drafts and intake drafts) and starting new experiments';

export const STAGE_WORDS: Record<DunningStage, StageWords> = {
  healthy: {
    label: 'In good standing',
    summary: 'Payments are up to date. Everything works.',
    works: ['Everything'],
    paused: [],
  },
  grace: {
    label: 'Grace period',
    summary: 'A payment failed. Nothing is paused yet and the card will be retried; pay the invoice or update the card to avoid any pause.',
    works: ['Everything: orders, approvals, patient flows, AI generation and experiments'],
    paused: [],
    next: `${AI_AND_EXPERIMENTS} pause`,
  },
  warning: {
    label: 'Payment past due',
    summary: 'A payment is past due. Orders still route, but some features are paused until it is paid.',
    works: ['Creating, approving and routing orders', 'Patient flows and intake', 'Reads and exports'],
    paused: [AI_AND_EXPERIMENTS],
    next: 'New approvals and new patient flow sessions pause too',
  },
  restricted: {
    label: 'Restricted',
    summary: 'A payment is past due. New approvals and new patient flow sessions are paused; orders already approved keep moving.',
    works: [
      'Orders already approved: sync, shipment, delivery, cancel and reroute',
      'Patient flow sessions already started can finish',
      'Creating orders (they wait for approval), reads and exports',
    ],
    paused: ['Approving orders and intake reviews', 'New patient flow sessions', AI_AND_EXPERIMENTS],
    next: 'The account is suspended: creating orders is refused too',
  },
  suspended: {
    label: 'Suspended',
    summary: 'The account is suspended for non-payment. Nothing new can start; what is already on its way keeps moving. Paying the overdue invoice restores everything at once.',
    works: ['Orders already approved keep moving to delivery (a dispatched prescription is never abandoned)', 'Reads and exports'],
    paused: ['Creating orders', 'Approving orders and intake reviews', 'New patient flow sessions', AI_AND_EXPERIMENTS],
  },
  recovered: {
    label: 'Recovered',
    summary: 'The overdue payment was received and everything works again. The account is back in good standing at the next paid period.',
    works: ['Everything'],
    paused: [],
  },
};

/** Stages with a payment past due: the banner shows on every console page (same rule as the server's isUnhealthy). */
export const PAST_DUE_STAGES: readonly DunningStage[] = ['grace', 'warning', 'restricted', 'suspended'];
export const isPastDue = (stage: DunningStage) => PAST_DUE_STAGES.includes(stage);

const CAUSES: Record<string, string> = {
  payment_failed: 'Payment failed',
  payment_succeeded: 'Payment received',
  period_paid: 'Next period paid',
  schedule: 'Dunning schedule (time passed)',
  grace_extended: 'Grace extended by support',
  subscription_canceled: 'Subscription canceled',
};
export const causeWords = (cause: string) => CAUSES[cause] ?? cause.replace(/_/g, ' ');
