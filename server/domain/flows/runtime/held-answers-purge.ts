import { sql } from 'drizzle-orm';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';

/**
 * Housekeeping: the held answers of sessions past their 24 h go (an expired session is 404 to everyone, so
 * they can serve no one; a submitted session's were emptied at submit). PHI is kept no longer than it serves.
 */
export async function purgeExpiredHeldAnswers(db: Db): Promise<void> {
  await db.execute(sql`delete from flow_session_answers a using flow_sessions s where s.id = a.session_id and s.expires_at < ${now()}`);
}
