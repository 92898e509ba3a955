import { describe, expect, it } from 'vitest';
import { approveBlock, decisionBlock } from '@/components/console/intake/submission-blocks';

/*
 * Issue 33, item 3: why the review page's buttons are disabled, in words. A platform flag that blocks
 * (identity_mismatch) stops approve only; the licence for the patient's state stops both decisions (the API
 * checks it for both); the engine's own review flags never block.
 */

const ok = { flags: [] as string[], patientState: 'CA', reviewerLicensed: true as boolean | null };

describe('approveBlock / decisionBlock', () => {
  it('nothing blocks a licensed provider, whatever review flags the rules raised', () => {
    expect(approveBlock({ ...ok, flags: ['gallbladder', 'senior_dose_review'] })).toBeNull();
    expect(decisionBlock(ok)).toBeNull();
  });

  it('identity_mismatch blocks approve with its reason, and leaves reject open', () => {
    const s = { ...ok, flags: ['gallbladder', 'identity_mismatch'] };
    expect(approveBlock(s)).toBe("The patient's identity must be resolved first");
    expect(decisionBlock(s)).toBeNull();
  });

  it('an unknown state or a missing licence blocks both, naming the state', () => {
    expect(approveBlock({ ...ok, patientState: null, reviewerLicensed: null })).toBe('The patient’s state is not known, so your licence for it cannot be checked.');
    expect(decisionBlock({ patientState: 'TX', reviewerLicensed: false })).toBe('You are not licensed in TX, the patient’s state.');
    expect(approveBlock({ ...ok, patientState: 'TX', reviewerLicensed: false })).toBe('You are not licensed in TX, the patient’s state.');
  });

  it('an unresolved patient match (identity.status mismatch) blocks approve; a resolved one does not', () => {
    expect(approveBlock({ ...ok, identity: { status: 'mismatch' } })).toBe("The patient's identity must be resolved first");
    expect(approveBlock({ ...ok, identity: { status: 'resolved' } })).toBeNull();
  });

  it('the identity comes first when both stand', () => {
    expect(approveBlock({ flags: ['identity_mismatch'], patientState: 'TX', reviewerLicensed: false })).toBe("The patient's identity must be resolved first");
  });
});
