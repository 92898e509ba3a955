import { events } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { idFloorAt } from '@/server/lib/ids';
import { toEventDto, type EventDto } from './events';

const PAGE = 500;
// Ids are minted before commit, so a slow transaction can commit an id older than one already streamed.
// Each read looks back this far behind the newest streamed event and skips what it already sent.
const LOOKBACK_MS = 5_000;

/**
 * Reads a scope's events in id order for one SSE connection, from just after `after` (Last-Event-ID)
 * or from the moment it opens, never sending an event twice nor skipping a late-committing one.
 */
export function createEventCursor(db: Db, scope: Scope, after: string | null) {
  const floor = after ?? idFloorAt('event', now().getTime());
  const sent = new Map<string, number>();
  let newestMs = 0;

  return {
    /** The next unsent events (up to a page), and whether more may be waiting right now. */
    async next(): Promise<{ events: EventDto[]; more: boolean }> {
      const lookback = newestMs ? idFloorAt('event', newestMs - LOOKBACK_MS) : floor;
      let from = lookback > floor ? lookback : floor;
      const fresh: EventDto[] = [];
      for (;;) {
        const rows = await scoped(db, scope).list(events, { order: 'oldest', startingAfter: from, limit: PAGE });
        for (const row of rows) {
          if (sent.has(row.id)) continue;
          sent.set(row.id, row.createdAt.getTime());
          newestMs = Math.max(newestMs, row.createdAt.getTime());
          fresh.push(toEventDto(row));
        }
        if (rows.length < PAGE) break;
        from = rows[rows.length - 1].id;
        if (fresh.length >= PAGE) return { events: fresh, more: true };
      }
      for (const [id, ms] of sent) if (ms < newestMs - 2 * LOOKBACK_MS) sent.delete(id);
      return { events: fresh, more: false };
    },
  };
}
