/**
 * Deepest object/array nesting a request body may have; no operation takes more than a few levels. tRPC's adapter
 * and zod walk a body recursively, so a 40 KB body nested 5,000 levels deep overflowed the stack (a 500)
 * before anything checked it.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN = new Set(['{', '[']);
const CLOSE = new Set(['}', ']']);

/**
 * Whether JSON text nests deeper than `max`, found by one pass over the text (no parse, no recursion),
 * stopping at the first bracket too deep. Brackets inside strings do not count; malformed text is left
 * for JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (OPEN.has(c)) {
      if (++depth > max) return true;
    } else if (CLOSE.has(c)) depth--;
  }
  return false;
}
