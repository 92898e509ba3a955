import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { events, jobs } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { purgeIdempotencyKeys } from '@/server/domain/developer/idempotency';
import { purgeExpiredHeldAnswers } from '@/server/domain/flows/runtime/held-answers-purge';
import { purgeSignInRows } from '@/server/domain/patients/sign-in/purge';
import { DELIVERY_HISTORY } from '@/server/domain/webhooks/deliveries';
import type { Config } from '@/server/lib/config';
import { now } from '@/server/lib/clock';

const BATCH = 5_000;
const DAY_MS = 86_400_000;

/**
 * Periodic housekeeping, safe to run from several workers at once:
 * events older than EVENT_RETENTION_DAYS go (in batches, so no long lock), buried jobs too, and each
 * endpoint's history keeps its newest DELIVERY_HISTORY finished deliveries. Deliveries still waiting for a
 * retry are never cut, and the events themselves are untouched by the history cap. Idempotency records
 * go once they can no longer be replayed (24 h), and a flow session's held answers once it expires: nothing of
 * a request is kept longer than it serves.
 */
export async function runMaintenance(db: Db, config: Config): Promise<void> {
  const cutoff = new Date(now().getTime() - config.EVENT_RETENTION_DAYS * DAY_MS);
  for (;;) {
    const old = db.select({ id: events.id }).from(events).where(lt(events.createdAt, cutoff)).limit(BATCH);
    const gone = await db.delete(events).where(inArray(events.id, old)).returning({ id: events.id });
    if (gone.length < BATCH) break;
  }
  await db.delete(jobs).where(and(eq(jobs.status, 'dead'), lt(jobs.updatedAt, cutoff)));
  await purgeIdempotencyKeys(db);
  await purgeExpiredHeldAnswers(db);
  await purgeSignInRows(db, cutoff);
  await db.execute(sql`
    delete from webhook_deliveries d using (
      select id from (
        select id, status, trigger, row_number() over (partition by endpoint_id order by id desc) as rn
        from webhook_deliveries
      ) ranked
      where rn > ${DELIVERY_HISTORY} and (status in ('delivered', 'dead') or trigger = 'test')
    ) old
    where d.id = old.id`);
}
