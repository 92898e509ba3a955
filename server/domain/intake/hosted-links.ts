import { and, eq, gt, isNull } from 'drizzle-orm';
import { intakeHostedLinks, patients, tenants } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { recordAccess } from '@/server/domain/patients/access-log';
import type { Mailer } from '@/server/integrations/mail/mailer';
import { now } from '@/server/lib/clock';
import { randomBase62, sha256Hex } from '@/server/lib/crypto';
import { AppError, errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { patientOutcome } from './patient-outcome';
import { patientView } from './patient-view';
import { requireUsableQuestionnaire } from './questionnaire-store';
import { answeredFacts, submissionFacts } from './identity-facts';
import { differingFields } from './patient-matching';
import type { CertificateSigner } from './certificates';
import { assertAnswersFit, recordSubmission } from './submissions-create';

/** Seven days (DESIGN decision 21): long enough for a patient to find the mail, short for a bearer secret. */
export const HOSTED_LINK_TTL_MS = 7 * 24 * 3600_000;
// 43 base62 characters ≈ 256 bits; only their SHA-256 is stored, so a database read cannot open a link.
const TOKEN_LENGTH = 43;
const TOKEN_SHAPE = /^[0-9A-Za-z]{43}$/;

type LinkRow = typeof intakeHostedLinks.$inferSelect;

export const hostedLinkUrl = (publicUrl: string, token: string) => `${publicUrl.replace(/\/$/, '')}/i/${token}`;

/** Unknown, expired and used links are one answer, so a guesser learns nothing about which tokens existed. */
const linkGone = () => errors.notFound('intake link');

const scopeOf = (link: LinkRow): Scope => ({ tenantId: link.tenantId, livemode: link.livemode });

/** The questionnaire of a link; one that is no longer approved makes the link as gone as an expired one. */
const questionnaireOf = (q: Queryable, link: LinkRow) =>
  requireUsableQuestionnaire(q, scopeOf(link), link.questionnaireKey).catch((err: unknown) => {
    throw err instanceof AppError && err.status === 404 ? linkGone() : err;
  });

async function clinicName(q: Queryable, tenantId: string): Promise<string> {
  const [row] = await q.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return row?.name ?? 'Your clinic';
}

export interface HostedLinkDeps {
  mailer: Mailer;
  publicUrl: string;
}

/**
 * POST /intake/hosted-links: a one-time link for an existing patient of the caller's scope to answer the current
 * approved version of a questionnaire, mailed to the patient. The mail names the clinic and nothing of health:
 * not the questionnaire's title, not the treatment. It is sent after the commit, so it never holds a dead link.
 */
export async function createHostedLink(db: Db, principal: TenantPrincipal, input: { patientId: string; questionnaireKey: string }, deps: HostedLinkDeps, requestId: string | null) {
  const token = randomBase62(TOKEN_LENGTH);
  const created = await db.transaction(async (tx) => {
    const patient = await scoped(tx, principal).require(patients, input.patientId, 'patient');
    await requireUsableQuestionnaire(tx, principal, input.questionnaireKey);
    if (!patient.email) throw errors.conflict('The patient has no e-mail address to send the link to; add one first.', 'patient_email_missing');
    // The address is read to send the mail: a disclosure like any other, so it is logged.
    await recordAccess(tx, principal, [patient.id], 'read', requestId);
    const at = now();
    const [row] = await tx
      .insert(intakeHostedLinks)
      .values({
        id: newId('intakeHostedLink'),
        tenantId: principal.tenantId,
        livemode: principal.livemode,
        tokenHash: sha256Hex(token),
        patientId: patient.id,
        questionnaireKey: input.questionnaireKey,
        createdBy: principal.userId ?? principal.keyId ?? 'unknown',
        expiresAt: new Date(at.getTime() + HOSTED_LINK_TTL_MS),
        createdAt: at,
      })
      .returning();
    return { row, email: patient.email, clinic: await clinicName(tx, principal.tenantId) };
  });
  const url = hostedLinkUrl(deps.publicUrl, token);
  await deps.mailer.send({
    to: created.email,
    subject: `${created.clinic} asks you to complete a questionnaire`,
    text: `${created.clinic} asks you to complete a questionnaire.\n\nOpen this link to answer it (valid for 7 days, usable once):\n\n${url}\n\nIf you did not expect this message, you can ignore it.`,
    link: url,
  });
  return { ...toHostedLinkDto(created.row), url };
}

export function toHostedLinkDto(row: LinkRow) {
  return {
    id: row.id,
    object: 'intake_hosted_link' as const,
    livemode: row.livemode,
    patientId: row.patientId,
    questionnaireKey: row.questionnaireKey,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The link a token opens, unexpired, used or not (a replayed submission still needs its scope); undefined for
 * anything else. A global lookup by the token's hash: the token is what tells the tenant and mode.
 */
export async function findHostedLink(q: Queryable, token: string): Promise<LinkRow | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const [row] = await q
    .select()
    .from(intakeHostedLinks)
    .where(and(eq(intakeHostedLinks.tokenHash, sha256Hex(token)), gt(intakeHostedLinks.expiresAt, now())))
    .limit(1);
  return row;
}

/** GET /public/intake/hosted/{token}: the patient-safe questionnaire of an open link. */
export async function getHostedIntake(db: Db, link: LinkRow) {
  if (link.usedAt) throw linkGone();
  const questionnaire = await questionnaireOf(db, link);
  return { questionnaire: patientView(questionnaire.document), expiresAt: link.expiresAt.toISOString(), clinicName: await clinicName(db, link.tenantId) };
}

/**
 * POST /public/intake/hosted/{token}/submissions. The link is spent by a conditional update in the submission's
 * own transaction: of two concurrent submits one wins, and a refused one (bad or missing answers) rolls the
 * spend back, so the patient can correct and resend.
 */
export async function submitHosted(db: Db, link: LinkRow, answers: Record<string, unknown>, signer: CertificateSigner) {
  return db.transaction(async (tx) => {
    const at = now();
    const [spent] = await tx
      .update(intakeHostedLinks)
      .set({ usedAt: at })
      .where(and(eq(intakeHostedLinks.id, link.id), isNull(intakeHostedLinks.usedAt), gt(intakeHostedLinks.expiresAt, at)))
      .returning();
    if (!spent) throw linkGone();
    const scope = scopeOf(link);
    const questionnaire = await questionnaireOf(tx, link);
    assertAnswersFit(questionnaire, answers);
    // The link names its patient; whoever answers it gives their own facts (DESIGN decisions 31, 32). A live
    // record whose date of birth or sex at birth differs is not changed: the submission is flagged instead.
    const patient = await scoped(tx, scope).require(patients, link.patientId, 'patient');
    const facts = answeredFacts(questionnaire.document, answers);
    const name = `${patient.firstName} ${patient.lastName}`.trim();
    const person = { name, email: patient.email ?? '', facts };
    const mismatch = link.livemode ? differingFields(patient, person) : [];
    const origin = { source: 'hosted' as const, patientId: link.patientId, facts: submissionFacts({ name, email: patient.email }, facts), identityMismatch: mismatch };
    const { row, evaluation } = await recordSubmission(tx, scope, questionnaire, origin, answers, signer, at);
    await tx.update(intakeHostedLinks).set({ submissionId: row.id }).where(eq(intakeHostedLinks.id, link.id));
    return { ...patientOutcome(questionnaire.document, evaluation), reference: row.reference! };
  });
}
