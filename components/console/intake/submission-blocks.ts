import type { ConsoleSubmission } from './intake-submission-types';

/*
 * Why a submission cannot be decided yet, in words (DESIGN decision 33). Flags the engine's rules raise
 * (`review_flag`) ask for care, not a stop; the flags below are raised by the platform and stop approval
 * until someone acts on them.
 */

/** Platform flags that block approval, with what the reviewer must do. */
export const BLOCKING_FLAGS: Readonly<Record<string, string>> = {
  identity_mismatch: "The patient's identity must be resolved first",
};

/** Platform flags in words, for the lists of matched rules (they have no rule in the questionnaire). */
export const PLATFORM_FLAG_WORDS: Readonly<Record<string, string>> = {
  identity_mismatch: 'The e-mail matches an existing patient whose details differ',
};

/** Why neither approve nor reject can be done by this reviewer: the licence for the patient's state (the API checks it for both). */
export function decisionBlock(s: Pick<ConsoleSubmission, 'patientState' | 'reviewerLicensed'>): string | null {
  if (!s.patientState) return 'The patient’s state is not known, so your licence for it cannot be checked.';
  if (s.reviewerLicensed === false) return `You are not licensed in ${s.patientState}, the patient’s state.`;
  return null;
}

/** Why approve is disabled: a blocking flag first (an unresolved patient match is `identity_mismatch`), then the licence. */
export function approveBlock(s: Pick<ConsoleSubmission, 'flags' | 'patientState' | 'reviewerLicensed'> & { identity?: { status: string } | null }): string | null {
  if (s.identity?.status === 'mismatch') return BLOCKING_FLAGS.identity_mismatch;
  const flag = s.flags.find((f) => f in BLOCKING_FLAGS);
  return flag ? BLOCKING_FLAGS[flag] : decisionBlock(s);
}
