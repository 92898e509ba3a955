import { eq } from 'drizzle-orm';
import { patientAccessLog, patients, type PatientAccessAction } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';

type AccessRow = typeof patientAccessLog.$inferSelect;

export function toAccessLogEntryDto(row: AccessRow) {
  return {
    id: row.id,
    patientId: row.patientId,
    action: row.action,
    actorKind: row.actorKind,
    actorId: row.actorId,
    requestId: row.requestId,
    at: row.at.toISOString(),
  };
}

/** The credential behind a request: the API key's id, or the signed-in person's user id. */
export function actorOf(p: TenantPrincipal): { actorKind: 'key' | 'user'; actorId: string } {
  const actorId = p.kind === 'user' ? p.userId : p.keyId;
  if (!actorId) throw new Error('A tenant principal without a key or user id cannot touch patient records.');
  return { actorKind: p.kind, actorId };
}

/**
 * One entry per patient touched. Callers pass their open transaction, so a record is never read or
 * changed without its entry (and an entry never exists for a change that rolled back).
 */
export async function recordAccess(q: Queryable, p: TenantPrincipal, patientIds: string[], action: PatientAccessAction, requestId: string | null) {
  const s = scoped(q, p);
  const at = now();
  for (const patientId of patientIds) await s.insert(patientAccessLog, accessEntry(p, patientId, action, requestId, at));
}

/** One access-log row, for `recordAccess` or a statement that writes the record and its entry together. */
export const accessEntry = (p: TenantPrincipal, patientId: string, action: PatientAccessAction, requestId: string | null, at: Date) => ({
  id: newId('patientAccess'),
  patientId,
  action,
  ...actorOf(p),
  requestId,
  at,
});

/**
 * The patient's own read or change through the portal (DESIGN decision 40): actor kind `patient`, the actor their
 * portal session (pss_…), in the caller's open transaction like every other entry.
 */
export async function recordPatientSelfAccess(q: Queryable, p: Scope & { patientId: string; sessionId: string }, action: PatientAccessAction, requestId: string | null) {
  await scoped(q, p).insert(patientAccessLog, { id: newId('patientAccess'), patientId: p.patientId, action, actorKind: 'patient', actorId: p.sessionId, requestId, at: now() });
}

/** Who may audit: API keys holding patients.read (checked by the route), and owner or admin sessions. */
export function assertMayReadAccessLog(p: TenantPrincipal): void {
  if (p.kind === 'user' && p.user?.role !== 'owner' && p.user?.role !== 'admin') {
    throw errors.forbidden("Only an owner or admin may read a patient's access log.", 'role_not_allowed');
  }
}

/** Newest first; the patient must exist in the caller's tenant and mode (404 otherwise). */
export async function listAccessLog(db: Db, p: TenantPrincipal, input: { patientId: string; limit: number; startingAfter?: string }) {
  assertMayReadAccessLog(p);
  const s = scoped(db, p);
  await s.require(patients, input.patientId, 'patient');
  const rows = await s.list(patientAccessLog, {
    where: eq(patientAccessLog.patientId, input.patientId),
    limit: input.limit,
    startingAfter: input.startingAfter,
  });
  return rows.map(toAccessLogEntryDto);
}
