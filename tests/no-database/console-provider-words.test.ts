import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '@/db/schema/orders';
import { SUBSCRIPTION_STATUSES } from '@/db/schema/billing';
import { factDiffers, recordedFact } from '@/components/intake/identity-compare';
import { biggestDrop, funnelRows } from '@/components/console/flows/funnel';
import { statusWords as billingStatusWords } from '@/components/console/billing/plan-words';
import {
  DELIVERY_STATUS_WORDS,
  FLOW_STATUS_WORDS,
  ORDER_STATUS_WORDS,
  STATUS_TOKENS,
  statusWords,
  SUBMISSION_SOURCE_WORDS,
  SUBMISSION_STATUS_WORDS,
} from '@/components/console/ui/status-words';

/** Issue 50 item 5, the console's words (no React): statuses, the identity side-by-side and the funnel's rows. */

describe('statuses in words', () => {
  it('every order status has words, and no area’s words hold a token', () => {
    expect(Object.keys(ORDER_STATUS_WORDS).sort()).toEqual([...ORDER_STATUSES].sort());
    for (const words of [ORDER_STATUS_WORDS, SUBMISSION_STATUS_WORDS, SUBMISSION_SOURCE_WORDS, FLOW_STATUS_WORDS, DELIVERY_STATUS_WORDS].flatMap((m) => Object.values(m))) {
      expect(words).not.toMatch(/_/);
    }
    for (const s of SUBSCRIPTION_STATUSES) expect(billingStatusWords(s)).not.toMatch(/_/);
    expect(ORDER_STATUS_WORDS.pending_approval).toBe('awaiting approval');
    expect(SUBMISSION_STATUS_WORDS.pending_review).toBe('pending review');
    expect(DELIVERY_STATUS_WORDS.dead).toBe('gave up');
  });

  it('a status no map knows still reads as words', () => {
    expect(statusWords('some_new_state')).toBe('some new state');
    expect(statusWords('enabled')).toBe('enabled');
  });

  it('lists the tokens a page must never show, for the Playwright scan', () => {
    expect(STATUS_TOKENS).toEqual(expect.arrayContaining(['pending_approval', 'pending_review', 'in_app', 'past_due', 'identity_mismatch']));
    expect(STATUS_TOKENS.every((t) => t.includes('_'))).toBe(true);
  });
});

describe('the identity side-by-side', () => {
  it('marks a fact as differing only when both sides recorded it and they differ', () => {
    expect(factDiffers('dateOfBirth', '1984-06-02', '1990-01-15')).toBe(true);
    expect(factDiffers('dateOfBirth', '1984-06-02', '1984-06-02')).toBe(false);
    // Missing on one side: not recorded, not different.
    expect(factDiffers('dateOfBirth', '1984-06-02', null)).toBe(false);
    expect(factDiffers('state', null, 'CA')).toBe(false);
    expect(factDiffers('email', 'a@example.org', '')).toBe(false);
    // An unknown sex at birth is none recorded.
    expect(factDiffers('sexAtBirth', 'unknown', 'female')).toBe(false);
    expect(factDiffers('sexAtBirth', 'female', null)).toBe(false);
    expect(factDiffers('sexAtBirth', 'female', 'male')).toBe(true);
    // Case and spacing are no difference.
    expect(factDiffers('email', 'Ada@Example.org', ' ada@example.org')).toBe(false);
  });

  it('compares a name part by part: a first name alone differs from nothing on the last name', () => {
    expect(factDiffers('name', 'Marisol Quintero', 'Marisol')).toBe(false);
    expect(factDiffers('name', 'Marisol Quintero', 'marisol  QUINTERO')).toBe(false);
    expect(factDiffers('name', 'Marisol Quintero', 'Marisol Reyes')).toBe(true);
    expect(factDiffers('name', 'Marisol Quintero', 'Ana Quintero')).toBe(true);
  });

  it('shows a fact in words, or as not recorded', () => {
    expect(recordedFact('sexAtBirth', 'female')).toBe('Female');
    expect(recordedFact('sexAtBirth', 'unknown')).toBeNull();
    expect(recordedFact('state', null)).toBeNull();
    expect(recordedFact('dateOfBirth', '1984-06-02')).toBe('1984-06-02');
  });
});

describe('the funnel', () => {
  const stats = {
    views: 10,
    qualified: 3,
    disqualified: 1,
    byStep: [
      { stepId: 'welcome', reached: 10, completes: 8 },
      { stepId: 'body', reached: 8, completes: 4 },
      { stepId: 'result', reached: 4, completes: 4 },
      { stepId: 'unseen', reached: 0, completes: 0 },
    ],
  };
  const steps = new Map([
    ['welcome', { kind: 'landing', heading: 'Weight care' }],
    ['body', { kind: 'medical', heading: 'About you' }],
    ['result', { kind: 'outcome', heading: 'You may be eligible' }],
  ]);

  it('gives each step how many reached it, completed it and dropped off there', () => {
    expect(funnelRows(stats, steps)).toEqual([
      { stepId: 'welcome', label: 'Weight care', reached: 10, completed: 8, dropped: 2, dropRate: '20%' },
      { stepId: 'body', label: 'About you', reached: 8, completed: 4, dropped: 4, dropRate: '50%' },
      { stepId: 'result', label: 'Submitted: You may be eligible', reached: 4, completed: 4, dropped: 0, dropRate: '0%' },
      { stepId: 'unseen', label: 'unseen', reached: 0, completed: 0, dropped: 0, dropRate: '—' },
    ]);
    expect(biggestDrop(funnelRows(stats, steps))?.stepId).toBe('body');
    expect(biggestDrop(funnelRows({ ...stats, byStep: [{ stepId: 'a', reached: 2, completes: 2 }] }))).toBeUndefined();
  });
});
