import { and, asc, eq, sql } from 'drizzle-orm';
import { jobs, patientLoginChallenges, patients } from '@/db/schema';
import { jobRow, wakeWorkers } from '@/server/db/outbox';
import { scoped, scopedStatement } from '@/server/db/scoped';
import type { AuthDeps } from '@/server/domain/auth/deps';
import { now } from '@/server/lib/clock';
import { normalizeEmail } from '@/server/lib/email';
import { newId } from '@/server/lib/ids';
import type { PortalKey } from '../portal-key';
import { emailKeyOf } from './login-secrets';

/** The job that turns a matched sign-in request into its mail (server/jobs/handlers/patient-login-mail.ts). */
export const PATIENT_LOGIN_MAIL_JOB = 'patient_login.mail';
/** A code (and its link) can be used for 10 minutes. */
export const LOGIN_CODE_TTL_MS = 10 * 60_000;

// At most two: one is a match, two or more is no match (a code goes only to a single, certain chart).
const patientsByEmailAndBirth = scopedStatement((own, q) =>
  q
    .select({ id: patients.id })
    .from(patients)
    .where(and(own(patients), sql`lower(${patients.email}) = ${sql.placeholder('email')}`, eq(patients.dateOfBirth, sql.placeholder('dateOfBirth'))))
    .orderBy(asc(patients.id))
    .limit(2),
);

/**
 * `POST /v1/public/patients/{embedKey}/login` (DESIGN decision 39). The answer is the same whatever is found, and
 * so is the work: the same lookup, then one statement writing a challenge row and its mail job, whether a patient
 * matched (the row names them) or not (it names no one, and the worker drops its job). No secret exists yet:
 * the worker draws the code when it writes the mail, so nothing in the request's timing depends on a match. A
 * key that is unknown or revoked gets the same answer and writes nothing.
 */
export async function requestPatientLogin(deps: Pick<AuthDeps, 'db' | 'secret' | 'limits'>, key: PortalKey | null, input: { email: string; dateOfBirth: string }, address: string) {
  const email = normalizeEmail(input.email);
  const emailKey = emailKeyOf(deps.secret, email);
  await deps.limits.patientLogin.consume('request', emailKey, address);
  if (!key) return { sent: true as const };
  const scope = { tenantId: key.tenantId, livemode: key.livemode };
  const found = await scoped(deps.db, scope).run(patientsByEmailAndBirth, { email, dateOfBirth: input.dateOfBirth });
  const at = now();
  const id = newId('patientLoginChallenge');
  await scoped(deps.db, scope).insert(
    patientLoginChallenges,
    { id, embedKeyId: key.id, emailKey, patientId: found.length === 1 ? found[0].id : null, codeHash: null, attempts: 0, expiresAt: new Date(at.getTime() + LOGIN_CODE_TTL_MS), usedAt: null, createdAt: at },
    [{ table: jobs, rows: [jobRow({ kind: PATIENT_LOGIN_MAIL_JOB, payload: { challengeId: id } }, at)] }],
  );
  await wakeWorkers(deps.db);
  return { sent: true as const };
}
