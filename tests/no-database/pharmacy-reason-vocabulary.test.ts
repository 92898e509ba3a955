import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { timelineReasonWords } from '@/components/console/orders/reason-words';
import { classifyReason, OTHER_REASON, PHARMACY_REASON_CODES, REASON_CODE_PATTERN, REASON_CODES, reasonTitle } from '@/server/lib/pharmacy-reason-codes';

/** Issue 54 item 2: the vocabulary itself, and how the console's order timeline words it. */

describe('the reason-code vocabulary', () => {
  it('every code is a wire code with words for the console, a meaning, and patient words naming nothing clinical', () => {
    for (const [code, r] of Object.entries(REASON_CODES)) {
      expect(code).toMatch(REASON_CODE_PATTERN);
      expect(r.title.length).toBeGreaterThan(3);
      expect(r.meaning.length).toBeGreaterThan(20);
      expect(r.patientWords).not.toMatch(/_|medication name|diagnos/i);
    }
    expect(PHARMACY_REASON_CODES).not.toContain('no_qualifying_pharmacy');
    // The codes the issue names, each in the vocabulary.
    for (const code of ['out_of_stock', 'prior_authorization_required', 'prescription_clarification', 'address_undeliverable', 'state_not_served', 'patient_unreachable']) {
      expect(PHARMACY_REASON_CODES).toContain(code);
    }
  });

  it('docs/pharmacy-protocol.md tables every code with its console and patient words, and whether rerouting helps', () => {
    const doc = fs.readFileSync('docs/pharmacy-protocol.md', 'utf8').split('## Reason codes')[1];
    for (const [code, r] of Object.entries(REASON_CODES)) {
      const row = doc.split('\n').find((line) => line.startsWith(`| \`${code}\` |`));
      expect(row, code).toBeDefined();
      const cells = row!.split('|').map((c) => c.trim());
      expect(cells[2], code).toBe(r.use.replace(/_/g, ' '));
      expect(cells[4], code).toBe(r.title);
      expect(cells[5], code).toBe(r.rerouteHelps ? 'yes' : 'no');
      expect(cells[6], code).toBe(r.patientWords);
    }
  });

  it('an unknown code is `other` with the raw value, never dropped', () => {
    expect(classifyReason('out_of_stock')).toEqual({ reasonCode: 'out_of_stock', reasonRaw: null });
    expect(classifyReason('license_hold')).toEqual({ reasonCode: OTHER_REASON, reasonRaw: 'license_hold' });
    expect(reasonTitle('license_hold')).toBe('Other (license_hold)');
  });
});

describe('the order timeline in words', () => {
  const row = (over: Partial<Parameters<typeof timelineReasonWords>[0]>) => timelineReasonWords({ reasonCode: null, actorKind: 'pharmacy', from: 'submitted', to: 'rejected', ...over });
  it('words a rejection, a hold and its release; leaves other codes as they are', () => {
    expect(row({ reasonCode: 'out_of_stock' })).toBe('Out of stock');
    expect(row({ reasonCode: 'weird_code' })).toBe('Other (weird_code)');
    expect(row({ reasonCode: 'no_qualifying_pharmacy', actorKind: 'system', from: 'approved' })).toBe('No pharmacy qualifies');
    expect(row({ reasonCode: 'prior_authorization_required', from: 'accepted', to: 'accepted' })).toBe('On hold: Prior authorisation required');
    expect(row({ reasonCode: 'hold_released', from: 'accepted', to: 'accepted' })).toBe('Hold released');
    expect(row({ reasonCode: 'pharmacy_recalled', from: 'cancelled', to: 'cancelled' })).toBeNull();
    expect(row({ reasonCode: 'rerouted', actorKind: 'key', from: 'rejected', to: 'approved' })).toBeNull();
    expect(row({ reasonCode: null })).toBeNull();
  });
});
