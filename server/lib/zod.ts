import * as base from 'zod';
import { normalizeEmail } from '@/server/lib/email';

/**
 * zod for everything that parses outside input: every string refuses the NUL character and a lone UTF-16
 * surrogate. PostgreSQL cannot store U+0000 in text or jsonb, so a NUL that passed validation failed in the
 * database as a 500 (and its driver message carried the row's values); a lone surrogate (U+D800–U+DFFF
 * unpaired, which JSON can carry as `"\ud800"` but UTF-8 cannot encode) was stored in text as U+FFFD, so the
 * record silently differed from what was sent, and failed in jsonb as a 500. Import this as
 * `import * as z from '@/server/lib/zod'`; the lint rule in eslint.config.js keeps request schemas from
 * importing zod directly.
 */
export * from 'zod';

/** The issue's `params.code`, so the error mapper can name this problem first (server/api/envelope.ts). */
export const NUL_CODE = 'nul_character';
/** Likewise for a lone UTF-16 surrogate. */
export const LONE_SURROGATE_CODE = 'lone_surrogate';
/** The codes of text no correction of the other fields could make storable: named before any other problem. */
export const UNSTORABLE_TEXT_CODES: ReadonlySet<string> = new Set([NUL_CODE, LONE_SURROGATE_CODE]);

const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
const LONE_SURROGATE_MESSAGE = 'must not contain a lone UTF-16 surrogate (\\ud800–\\udfff)';
// zod moves a params object's `message` to `error` in place, so each use gets its own object.
const noNul = () => ({ message: NUL_MESSAGE, params: { code: NUL_CODE } });
const noLoneSurrogate = () => ({ message: LONE_SURROGATE_MESSAGE, params: { code: LONE_SURROGATE_CODE } });
const hasNoNul = (v: string) => !v.includes('\u0000');
// String.prototype.isWellFormed (ES2024; Node ≥ 20) is native and allocates nothing; this project's typings stop
// at ES2023. A valid pair (an emoji) is well-formed; only an unpaired half is not.
const isWellFormed = (v: string) => (v as string & { isWellFormed(): boolean }).isWellFormed();

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
  return base.string(params).overwrite(withoutBidiControls).refine(hasNoNul, noNul()).refine(isWellFormed, noLoneSurrogate());
}

/** A string kept exactly as sent (passwords, which must verify as they were chosen); still no NUL, no lone surrogate. */
export function exactString(params?: string | base.core.$ZodStringParams): base.ZodString {
  return base.string(params).refine(hasNoNul, noNul()).refine(isWellFormed, noLoneSurrogate());
}

// WHATWG URL parsing drops leading and trailing control characters, so z.url() alone lets a NUL through; it also
// turns a lone surrogate into U+FFFD and percent-encodes that, so the URL would parse as another one.
export function url(params?: string | base.core.$ZodURLParams): base.ZodURL {
  return base.url(params).refine(hasNoNul, noNul()).refine(isWellFormed, noLoneSurrogate());
}

export function email(params?: string | base.core.$ZodEmailParams): base.ZodEmail {
  return base.email(params).refine(hasNoNul, noNul()).refine(isWellFormed, noLoneSurrogate());
}

/**
 * A person's e-mail address (a patient's; users' come through auth's zEmail): trimmed and lower-cased after it
 * validates, so every record stores one spelling and every match ignores case (issue 49). `.overwrite` keeps the
 * schema an e-mail string, so the OpenAPI document is unchanged. Not for addresses that identify no one.
 */
export function personEmail(params?: string | base.core.$ZodEmailParams): base.ZodEmail {
  return email(params).overwrite(normalizeEmail);
}

/**
 * Free JSON (answers keyed by item id, adapter settings, block fields): any value, but every string in it, at any
 * depth, refuses the NUL and a lone surrogate like a string field does, named by its path; a key that holds one
 * is named by the path of its object. Walked without recursion (the body's depth is capped before parsing, but
 * this need not rely on it).
 */
export function unknown(): base.ZodUnknown {
  return base.unknown().superRefine((value, ctx) => {
    const stack: [unknown, PropertyKey[]][] = [[value, []]];
    while (stack.length) {
      const [v, path] = stack.pop()!;
      if (typeof v === 'string') {
        const problem = unstorable(v);
        if (problem) ctx.addIssue({ code: 'custom', input: v, path, ...problem });
      } else if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]);
      } else if (v !== null && typeof v === 'object') {
        const entries = Object.entries(v);
        for (const [k] of entries) {
          const problem = unstorable(k);
          if (problem) {
            ctx.addIssue({ code: 'custom', input: v, path, ...problem });
            break;
          }
        }
        for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i][1], [...path, entries[i][0]]]);
      }
    }
  });
}

const unstorable = (v: string) => (!hasNoNul(v) ? noNul() : !isWellFormed(v) ? noLoneSurrogate() : null);
