import * as base from 'zod';

/**
 * zod for everything that parses outside input: every string refuses the NUL character. PostgreSQL cannot
 * store U+0000 in text or jsonb, so a NUL that passed validation failed in the database as a 500 (and its
 * driver message carried the row's values). Import this as `import * as z from '@/server/lib/zod'`; the
 * lint rule in eslint.config.js keeps request schemas from importing zod directly.
 */
export * from 'zod';

/** The issue's `params.code`, so the error mapper can name this problem first (server/api/envelope.ts). */
export const NUL_CODE = 'nul_character';
const noNul = { message: 'must not contain the NUL character (\\u0000)', params: { code: NUL_CODE } };
const hasNoNul = (v: string) => !v.includes('\u0000');

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): a name or a line of copy with
 * them renders reversed or reordered on every page that shows it ("Trojan Source"-style spoofing of a patient's
 * or a clinic's name). Nothing a person types needs them, so every string drops them on the way in.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
const HAS_BIDI_CONTROL = new RegExp(BIDI_CONTROLS.source);
// Tested first: a global replace costs more than a test even when it finds nothing, and almost no string has one.
const withoutBidiControls = (v: string) => (HAS_BIDI_CONTROL.test(v) ? v.replace(BIDI_CONTROLS, '') : v);

export function string(params?: string | base.core.$ZodStringParams): base.ZodString {
  return base.string(params).overwrite(withoutBidiControls).refine(hasNoNul, noNul);
}

/** A string kept exactly as sent (passwords, which must verify as they were chosen); still no NUL. */
export function exactString(params?: string | base.core.$ZodStringParams): base.ZodString {
  return base.string(params).refine(hasNoNul, noNul);
}

// WHATWG URL parsing drops leading and trailing control characters, so z.url() alone lets a NUL through.
export function url(params?: string | base.core.$ZodURLParams): base.ZodURL {
  return base.url(params).refine(hasNoNul, noNul);
}

export function email(params?: string | base.core.$ZodEmailParams): base.ZodEmail {
  return base.email(params).refine(hasNoNul, noNul);
}
