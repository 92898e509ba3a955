import { sql } from 'drizzle-orm';
import { eventStreams } from '@/db/schema';
import type { Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { scopeTag } from './emit';

/**
 * Keeps the scope's events waking SSE streams (the `events_notify` trigger NOTIFYs only for listed scopes)
 * for `ttlMs` from now, by the database's clock, which is the one the trigger compares with. An open stream
 * calls this on connect and on every heartbeat, so the listing lapses by itself once no stream renews it,
 * whichever process held the stream and however it ended.
 */
export async function keepStreamAwake(db: Db, scope: Scope, ttlMs: number): Promise<void> {
  const until = sql`clock_timestamp() + ${ttlMs} * interval '1 millisecond'`;
  await db
    .insert(eventStreams)
    .values({ id: scopeTag(scope), until })
    .onConflictDoUpdate({ target: eventStreams.id, set: { until: sql`greatest(${eventStreams.until}, excluded.until)` } });
}
