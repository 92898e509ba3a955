import { createHash } from 'node:crypto';

/**
 * The short reference a patient can quote for a submission (docs/decisions/intake.md, "The patient reference"): 8 characters of
 * Crockford base32 (digits and capitals without I, L, O, U, so nothing reads as another character over the
 * phone) taken from SHA-256 of the submission id, shown as two groups of four: `7KQ2-M9XD`. Derived, so the
 * same submission always has the same reference; stored beside it, so staff find the submission by it. It
 * says nothing about the patient or the answers and is no database id (the id cannot be recovered from it).
 * 40 bits: two submissions of one clinic may share a reference in rare cases, so a lookup lists every match.
 */

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 8;

export function submissionReference(submissionId: string): string {
  const digest = createHash('sha256').update(`intake-submission-reference:${submissionId}`).digest();
  let bits = 0n;
  for (const byte of digest.subarray(0, 5)) bits = (bits << 8n) | BigInt(byte);
  let out = '';
  for (let i = LENGTH - 1; i >= 0; i--) out += ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)];
  return `${out.slice(0, 4)}-${out.slice(4)}`;
}

/**
 * A reference as staff type it, in the stored form, or null when it cannot be one: case, spaces and dashes
 * do not matter, and the letters Crockford reads as digits (O → 0, I and L → 1) are read that way.
 */
export function normalizeReference(input: string): string | null {
  const compact = input
    .toUpperCase()
    .replace(/[\s-]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (compact.length !== LENGTH || [...compact].some((c) => !ALPHABET.includes(c))) return null;
  return `${compact.slice(0, 4)}-${compact.slice(4)}`;
}
