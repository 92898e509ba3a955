import { EVENT_TYPES } from '@/server/domain/events/catalog';
import { UsageError } from '../cli-command';

/**
 * `--events order.*,flow.*` as a predicate over event types: each pattern is a type or ends in `*`, and must name
 * at least one type the product emits (a typo would otherwise filter everything out in silence). Empty: all.
 */
export function eventFilter(spec: string | undefined): (type: string) => boolean {
  const patterns = (spec ?? '').split(',').map((p) => p.trim()).filter(Boolean);
  if (patterns.length === 0) return () => true;
  const matchers = patterns.map((p) => {
    if (!/^[a-z.]+\*?$/.test(p)) throw new UsageError(`--events: '${p}' is not an event type or a prefix ending in * (e.g. order.*)`);
    const match = p.endsWith('*') ? (t: string) => t.startsWith(p.slice(0, -1)) : (t: string) => t === p;
    if (!EVENT_TYPES.some(match)) throw new UsageError(`--events: '${p}' matches no event type. The types: ${EVENT_TYPES.join(', ')}`);
    return match;
  });
  return (type) => matchers.some((m) => m(type));
}
