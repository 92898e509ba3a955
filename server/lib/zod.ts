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

export function string(params?: string | base.core.$ZodStringParams): base.ZodString {
  return base.string(params).refine(hasNoNul, noNul);
}

// WHATWG URL parsing drops leading and trailing control characters, so z.url() alone lets a NUL through.
export function url(params?: string | base.core.$ZodURLParams): base.ZodURL {
  return base.url(params).refine(hasNoNul, noNul);
}

export function email(params?: string | base.core.$ZodEmailParams): base.ZodEmail {
  return base.email(params).refine(hasNoNul, noNul);
}
