import type { ContactAnswers, PublicStep } from './types';

/**
 * The contact step opens with the date of birth and state the patient already answered (the definition names
 * the items; the answers are those sent from this page, or given back to the resumed session by the server),
 * so they are not typed twice (decision 31), after a reload too (decision 44).
 */
export function contactPrefill(step: PublicStep, sent: Readonly<Record<string, Record<string, unknown>>>): Partial<ContactAnswers> | undefined {
  if (step.kind !== 'contact') return undefined;
  const answered = Object.assign({}, ...Object.values(sent)) as Record<string, unknown>;
  const out: Partial<ContactAnswers> = {};
  for (const field of ['dateOfBirth', 'state'] as const) {
    const linkId = step.prefill[field];
    const value = linkId ? answered[linkId] : undefined;
    if (typeof value === 'string') out[field] = value;
  }
  return out;
}
