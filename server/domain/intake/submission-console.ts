import { and, eq, inArray } from 'drizzle-orm';
import { flows, flowSessions, flowVersions, intakeAnswers, patients, questionnaires } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Database, Queryable } from '@/server/db/types';
import { isLicensedIn } from '@/server/domain/auth/licenses';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { hasScope } from '@/server/domain/developer/scopes';
import { recordAccess } from '@/server/domain/patients/access-log';
import { patientStateOf } from '@/server/domain/patients/patients';
import { identityRecords } from './identity-resolution';
import { toSubmissionDto, type SubmissionRow } from './submissions-dto';
import { listSubmissions, requireSubmission, submittedStateOf, type SubmissionStatusFilter } from './submissions-read';
import { ageAt, personOf } from './submission-person';

/*
 * The console's review page and queue (DESIGN decision 33): the submission with the person it describes.
 * The person is PHI, so it goes only to a caller holding patients.read, and every patient shown is written to
 * the access log in the same transaction: one `intake_read` entry per review page read (the person includes
 * what the answers say, such as BMI), one `list` entry per patient a queue page shows, as GET /v1/orders's
 * console view does. A flagged patient match (DESIGN decision 32) adds both people side by side, whose read
 * is logged by `identityRecords`; the person's own entry is then not written twice.
 */

/** The flow and version a submission came through, by name and number (null for other sources). */
async function flowOf(q: Queryable, scope: Scope, row: SubmissionRow) {
  if (!row.flowSessionId) return null;
  const s = scoped(q, scope);
  const session = await s.get(flowSessions, row.flowSessionId);
  const version = session ? await s.get(flowVersions, session.flowVersionId) : undefined;
  const flow = version ? await s.get(flows, version.flowId) : undefined;
  return version && flow ? { id: flow.id, name: flow.name, versionId: version.id, versionNumber: version.number } : null;
}

/** Whether the signed-in provider is licensed in `state`; null when the caller is no provider or the state is unknown. */
function reviewerLicensed(principal: TenantPrincipal, state: string | null) {
  const user = principal.user;
  return user?.role === 'provider' && state ? isLicensedIn(user, state) : null;
}

/** GET the review page's record: the submission, its questionnaire and flow version, and the person (logged). */
export async function consoleSubmission(database: Database, principal: TenantPrincipal, id: string, requestId: string | null) {
  return database.db.transaction(async (tx) => {
    const s = scoped(tx, principal);
    const row = await requireSubmission(tx, principal, id);
    const questionnaire = await s.get(questionnaires, row.questionnaireId);
    const patient = await s.get(patients, row.patientId);
    // The submission's reconciled state (what the engine and the licence check used), else the patient's.
    const state = (await submittedStateOf(tx, principal, row.id)) ?? (patient ? patientStateOf(patient) : null);
    const dto = toSubmissionDto(row, questionnaire?.document);
    const identity = dto.identity ? { ...dto.identity, ...(await identityRecords(tx, principal, row, requestId)) } : null;
    const base = {
      ...dto,
      patientState: state,
      identity,
      questionnaireTitle: questionnaire?.document.title ?? null,
      flow: await flowOf(tx, principal, row),
      reviewerLicensed: reviewerLicensed(principal, state),
    };
    if (!patient || !hasScope(principal.scopes, 'patients.read')) return { ...base, person: null };
    const [stored] = await tx
      .select({ answers: intakeAnswers.answers })
      .from(intakeAnswers)
      .where(and(eq(intakeAnswers.tenantId, principal.tenantId), eq(intakeAnswers.livemode, principal.livemode), eq(intakeAnswers.submissionId, row.id)));
    // One entry per view: a flagged match's two records were logged (this patient among them) just above.
    if (!identity) await recordAccess(tx, principal, [patient.id], 'intake_read', requestId);
    return { ...base, person: personOf(patient, state, row.createdAt, questionnaire?.document, stored?.answers ?? {}) };
  });
}

type ListInput = Parameters<typeof listSubmissions>[2] & { status: SubmissionStatusFilter };

/** The review queue's page, each submission with its patient's name, age and state when the caller reads patients. */
export async function consoleSubmissions(database: Database, principal: TenantPrincipal, input: ListInput, requestId: string | null) {
  return database.db.transaction(async (tx) => {
    const page = await listSubmissions(tx, principal, input);
    const wanted = [...new Set(page.map((r) => r.patientId))];
    const shown = new Map<string, typeof patients.$inferSelect>();
    if (hasScope(principal.scopes, 'patients.read') && wanted.length > 0) {
      const rows = await tx.select().from(patients).where(scoped(tx, principal).where(patients, inArray(patients.id, wanted)));
      await recordAccess(tx, principal, rows.map((r) => r.id), 'list', requestId);
      for (const r of rows) shown.set(r.id, r);
    }
    return page.map((sub) => {
      const p = shown.get(sub.patientId);
      const patient = p ? { id: p.id, firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dateOfBirth, ageAtSubmission: ageAt(p.dateOfBirth, new Date(sub.createdAt)), state: patientStateOf(p) } : null;
      return { ...sub, patient };
    });
  });
}
