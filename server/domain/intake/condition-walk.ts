import type { Operand } from './shared/engine';
import type { Condition } from './questionnaire-schema';

/** Visits every comparison of a condition tree with its dotted path (`….all.0.not`). */
export function walk(c: Condition, at: string, visit: (cmp: Extract<Condition, { q: string }>, at: string) => void) {
  if ('all' in c) c.all.forEach((x, k) => walk(x, `${at}.all.${k}`, visit));
  else if ('any' in c) c.any.forEach((x, k) => walk(x, `${at}.any.${k}`, visit));
  else if ('not' in c) walk(c.not, `${at}.not`, visit);
  else visit(c, at);
}

/** The items an operand reads: the item itself, or the one or two items behind a derived value. */
export function referencedIndexes(o: Operand): number[] {
  if (o.kind === 'item' || o.kind === 'age') return [o.index];
  if (o.kind === 'bmi') return [o.height, o.weight];
  return [];
}
