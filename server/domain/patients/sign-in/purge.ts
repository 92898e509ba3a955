import { lt } from 'drizzle-orm';
import { patientLoginChallenges, patientSessions } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';

const DAY_MS = 86_400_000;

/**
 * Housekeeping of the portal's sign-in (the worker's maintenance): a sign-in request is worth nothing a day after
 * its code expired, and every request writes one, so they go then. Sessions name the actor of the patient's own
 * access-log entries (pss_…), so they stay as long as the event log does (`before`).
 */
export async function purgeSignInRows(db: Db, before: Date): Promise<void> {
  await db.delete(patientLoginChallenges).where(lt(patientLoginChallenges.expiresAt, new Date(now().getTime() - DAY_MS)));
  await db.delete(patientSessions).where(lt(patientSessions.createdAt, before));
}
