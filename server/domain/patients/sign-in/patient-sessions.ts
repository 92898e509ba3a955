import { and, eq, gt, isNull } from 'drizzle-orm';
import { patientSessions } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { randomBase62, sha256Hex } from '@/server/lib/crypto';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';

/** A patient's session ends 30 minutes after its last use and 12 hours after sign-in, whichever comes first. */
export const PATIENT_SESSION_IDLE_MS = 30 * 60_000;
export const PATIENT_SESSION_MAX_MS = 12 * 3_600_000;

/** `pt_` and 43 base62 characters (256 bits): told apart at a glance from API keys (`nk_`, `rk_`) and console JWTs. */
export const PATIENT_TOKEN = /^pt_[0-9A-Za-z]{43}$/;

/** Who is calling a patient endpoint: one patient of one clinic in one mode, through one session. */
export interface PatientPrincipal extends Scope {
  patientId: string;
  sessionId: string;
}

const expiryOf = (row: { createdAt: Date; lastSeenAt: Date }) =>
  new Date(Math.min(row.lastSeenAt.getTime() + PATIENT_SESSION_IDLE_MS, row.createdAt.getTime() + PATIENT_SESSION_MAX_MS));

/** Starts a session for the patient in the caller's transaction; the token is returned once and stored as its hash. */
export async function startPatientSession(q: Queryable, scope: Scope, patientId: string): Promise<{ token: string; expiresAt: string }> {
  const token = `pt_${randomBase62(43)}`;
  const at = now();
  const row = await scoped(q, scope).insert(patientSessions, { id: newId('patientSession'), patientId, tokenHash: sha256Hex(token), createdAt: at, lastSeenAt: at, endedAt: null });
  return { token, expiresAt: expiryOf(row).toISOString() };
}

const invalidSession = () => errors.unauthenticated('This sign-in has ended or is not valid. Sign in to the portal again.', 'invalid_patient_session');

/**
 * The session a patient token names, if it is still open: one conditional UPDATE both checks it (not ended, used
 * within 30 minutes, under 12 hours old) and marks this use, which is what keeps an active session alive.
 * Anything else is a 401.
 */
export async function authenticatePatientToken(q: Queryable, token: string): Promise<PatientPrincipal & { expiresAt: string }> {
  if (!PATIENT_TOKEN.test(token)) throw invalidSession();
  const at = now();
  // Unscoped by nature: the token is what names the tenant, like an API key.
  const [row] = await q
    .update(patientSessions)
    .set({ lastSeenAt: at })
    .where(
      and(
        eq(patientSessions.tokenHash, sha256Hex(token)),
        isNull(patientSessions.endedAt),
        gt(patientSessions.lastSeenAt, new Date(at.getTime() - PATIENT_SESSION_IDLE_MS)),
        gt(patientSessions.createdAt, new Date(at.getTime() - PATIENT_SESSION_MAX_MS)),
      ),
    )
    .returning();
  if (!row) throw invalidSession();
  return { tenantId: row.tenantId, livemode: row.livemode, patientId: row.patientId, sessionId: row.id, expiresAt: expiryOf(row).toISOString() };
}

/** Ends the session at once; ending an ended one changes nothing. */
export async function endPatientSession(q: Queryable, principal: PatientPrincipal): Promise<{ signedOut: true }> {
  await scoped(q, principal).update(patientSessions, principal.sessionId, { endedAt: now() }, isNull(patientSessions.endedAt));
  return { signedOut: true };
}
