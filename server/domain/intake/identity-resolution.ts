import { eq } from 'drizzle-orm';
import { intakeSubmissions, patients, type IdentityResolution, type SubmissionFacts } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Database, Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { recordAccess } from '@/server/domain/patients/access-log';
import { insertPatient, patientStateOf } from '@/server/domain/patients/patients';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newPatientFields } from './patient-matching';
import { requireSubmission, submissionDto, submittedFactsOf } from './submissions-read';

/**
 * Resolving a patient match (DESIGN decision 32). A live submission whose e-mail matched a patient with a
 * different date of birth, sex at birth or last name waits, flagged `identity_mismatch`, until a provider or an
 * admin decides whose submission it is: `existing` keeps it on the matched patient, `new` creates a patient
 * from the submission's own facts and moves it there. The matched record is never changed either way. The
 * decision is recorded (who, when) and written to the access log of each patient record it concerns.
 */

/** Providers decide clinical questions and admins run the clinic's records; no API key, no other role. */
function assertMayResolve(p: TenantPrincipal): asserts p is TenantPrincipal & { userId: string } {
  const role = p.kind === 'user' ? p.user?.role : undefined;
  if (!p.userId || (role !== 'provider' && role !== 'admin' && role !== 'owner')) {
    throw errors.forbidden('Only a provider or a clinic admin signed in with their own account can resolve a patient match.', 'role_not_allowed');
  }
}

/** `new`: a fresh patient from the submission's person; a submission without one (older rows) cannot be moved. */
async function newPatientFrom(tx: Queryable, principal: TenantPrincipal, facts: SubmissionFacts | null, requestId: string | null) {
  if (!facts?.name || !facts.email || !facts.dateOfBirth) {
    throw errors.conflict('This submission does not hold the person’s name, e-mail and date of birth, so no new patient can be made from it; keep the existing patient or reject it.', 'identity_facts_incomplete');
  }
  const person = {
    name: facts.name,
    email: facts.email,
    facts: { dateOfBirth: facts.dateOfBirth, sexAtBirth: facts.sexAtBirth ?? undefined, state: facts.state ?? undefined },
    phone: facts.phone,
    address: facts.address,
  };
  return insertPatient(tx, principal, newPatientFields(person, () => new Error('unreachable: the date of birth was checked')), requestId);
}

export async function resolveIdentity(database: Database, principal: TenantPrincipal, id: string, input: { patient: IdentityResolution }, requestId: string | null) {
  assertMayResolve(principal);
  return database.db.transaction(async (tx) => {
    const row = await requireSubmission(tx, principal, id);
    if (row.identityStatus === 'resolved') throw errors.conflict('This patient match was already resolved.', 'identity_already_resolved');
    if (row.identityStatus !== 'mismatch') throw errors.conflict('This submission has no patient match to resolve.', 'identity_not_flagged');
    const matched = row.identityMatchedPatientId ?? row.patientId;
    const created = input.patient === 'new' ? await newPatientFrom(tx, principal, await submittedFactsOf(tx, principal, row.id), requestId) : null;
    const at = now();
    const resolved = await scoped(tx, principal).update(
      intakeSubmissions,
      id,
      {
        ...(created && { patientId: created.id }),
        identityStatus: 'resolved',
        identityResolution: input.patient,
        identityResolvedBy: principal.userId,
        identityResolvedAt: at,
        updatedAt: at,
      },
      // Conditional, so two resolutions racing cannot both win.
      eq(intakeSubmissions.identityStatus, 'mismatch'),
    );
    if (!resolved) throw errors.conflict('This patient match was resolved meanwhile.', 'identity_already_resolved');
    // Deciding whose submission it is discloses it to that record: logged like a read of the answers.
    await recordAccess(tx, principal, created ? [matched, created.id] : [matched], 'identity_resolve', requestId);
    return submissionDto(tx, principal, resolved);
  });
}

/**
 * The two people of a flagged submission, for the console's review page only (DESIGN decision 33): the matched
 * patient's record and the person the submission describes. Reading them is a PHI read, logged on the
 * matched patient (and on the submission's patient when it was moved to a new one).
 */
export async function identityRecords(q: Queryable, principal: TenantPrincipal, row: Awaited<ReturnType<typeof requireSubmission>>, requestId: string | null) {
  const matchedId = row.identityMatchedPatientId ?? row.patientId;
  const existing = await scoped(q, principal).require(patients, matchedId, 'patient');
  const facts = await submittedFactsOf(q, principal, row.id);
  await recordAccess(q, principal, matchedId === row.patientId ? [matchedId] : [matchedId, row.patientId], 'intake_read', requestId);
  return {
    existing: {
      patientId: existing.id,
      name: `${existing.firstName} ${existing.lastName}`.trim(),
      dateOfBirth: existing.dateOfBirth,
      sexAtBirth: existing.sex,
      state: patientStateOf(existing),
      email: existing.email,
    },
    submitted: {
      name: facts?.name ?? null,
      dateOfBirth: facts?.dateOfBirth ?? null,
      sexAtBirth: facts?.sexAtBirth ?? null,
      state: facts?.state ?? null,
      email: facts?.email ?? null,
    },
  };
}
