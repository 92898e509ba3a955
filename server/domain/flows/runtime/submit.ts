import { sql } from 'drizzle-orm';
import { flowSessionAnswers, type PatientAddress } from '@/db/schema';
import { joinTransaction } from '@/server/db/savepoint';
import type { Db, Tx } from '@/server/db/types';
import { newEvent } from '@/server/domain/events/emit';
import type { CertificateSigner } from '@/server/domain/intake/certificates';
import { evaluate } from '@/server/domain/intake/shared/engine';
import { answeredFacts, answersWithFacts, reconcileFacts, submissionFacts, type IdentityFacts } from '@/server/domain/intake/identity-facts';
import { dateOfBirthRequired, publicPatient } from '@/server/domain/intake/patient-matching';
import { embedActor } from '@/server/domain/intake/public-intake';
import { recordSmsConsent } from '@/server/domain/notices/consent';
import { asOfDay, recordSubmission } from '@/server/domain/intake/submissions-create';
import { tenantFeatures } from '@/server/domain/ops/features';
import { now } from '@/server/lib/clock';
import { normalizeEmail } from '@/server/lib/email';
import { errors } from '@/server/lib/errors';
import { clinicalSteps, type FlowDocumentShape } from '../flow-schema';
import { checkoutUrlFor, enqueueConversionPostbacks } from '../checkout';
import { randomInt } from 'node:crypto';
import { heldMedicalAnswers } from './contact-facts';
import { countCtes, countedValues, countValues, STATS_SHARDS, viewDay, VIEW_MARK } from './counting';
import { loadPinnedVersion, type PinnedVersion } from './pinned-version';
import { recordedOutcome, sessionOutcome } from './progress';
import { armDocumentOf, heldAnswersOf, heldSteps, requireSession, type FlowEmbed, type FlowSessionRow } from './sessions';
import { sessionCompleted } from './steps';
import { namedStatement } from '@/server/db/named-sql';

export interface SubmitInput {
  patient: { name: string; email: string };
}

type Held = Record<string, Record<string, unknown>>;

/** What the contact step holds: everything in live mode, the state only in sandbox (step-answers.ts). */
export interface HeldContact {
  name?: string;
  email?: string;
  state?: string;
  dateOfBirth?: string;
  phone?: string;
  address?: PatientAddress;
  /** Consent to text messages at `phone` (DESIGN decision 41); held in sandbox too. */
  smsConsent?: boolean;
}

const fold = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The person behind the run (DESIGN decision 31): where the flow has a contact step, its name and e-mail are
 * the person's, and the submit body must agree with them (400 naming the field otherwise; the contact step's
 * values are kept); its date of birth and state are reconciled with the answered facts once more (a medical
 * step may have been saved again after the contact step).
 */
function personOf(pinned: PinnedVersion, held: Held, answers: Record<string, unknown>, input: SubmitInput) {
  const contactStep = pinned.version.document.steps.find((s) => s.kind === 'contact');
  const contact = (contactStep ? held[contactStep.id] : undefined) as HeldContact | undefined;
  const name = contact?.name ?? input.patient.name;
  const email = contact?.email ?? input.patient.email;
  if (fold(input.patient.name) !== fold(name)) throw contactMismatch('name');
  if (fold(input.patient.email) !== fold(email)) throw contactMismatch('email');
  const given: IdentityFacts = { dateOfBirth: contact?.dateOfBirth, state: contact?.state };
  const facts = reconcileFacts(answeredFacts(pinned.questionnaire.document, answers), given, (f) => (f === 'sexAtBirth' ? 'answers' : `patient.${f}`));
  return { name: name.trim(), email: normalizeEmail(email), facts, phone: contact?.phone ?? null, address: contact?.address ?? null, smsConsent: contact?.smsConsent === true };
}

const contactMismatch = (field: 'name' | 'email') =>
  errors.validation(
    `The ${field === 'name' ? 'name' : 'e-mail address'} sent with the submission differs from the one given in your contact details. Please send the same one.`,
    `patient.${field}`,
    'contact_mismatch',
  );

const p = sql.placeholder;
/** The counter of a verdict. */
const countedAs = (verdict: 'eligible' | 'disqualified') => (verdict === 'eligible' ? 'qualified' : 'disqualified');
/** The texts closeSession sends: by the verdict's counter, and whether the flow has an outcome page to count. */
type CloseShape = `${'eligible' | 'disqualified'}${'' | '+outcome'}`;

/**
 * Closes the session, empties its held answers (PHI kept only until the submission holds them; step ids kept
 * for the resume view) and counts the run, in one statement (docs/decisions/performance.md,
 * "Public runtime: statements per request"). The counts (DESIGN decision 34): the verdict, on the day the session was first viewed (so
 * qualified ≤ views on every row); the outcome page's completion, which is the submit; and the view itself
 * for a session that somehow has none (its saves count it; this only closes the gap for a session older than
 * that rule). They come last in the transaction: the flow-level row is shared by every session of the flow
 * that day, so its lock is held briefly.
 */
const closeStatement = namedStatement((shape: CloseShape) => sql`
    with closed as (
      update flow_sessions set status = 'completed', verdict = ${p('close.verdict')}, submission_id = ${p('close.submissionId')}, completed_at = ${p('s.at')}, updated_at = ${p('s.at')}
      where tenant_id = ${p('s.tenantId')} and livemode = ${p('s.livemode')} and id = ${p('s.sessionId')}
      returning 1
    ), released as (
      update ${flowSessionAnswers} set steps = ${p('close.released')}::jsonb, updated_at = ${p('s.at')} where ${heldAnswersOf({ tenantId: p('s.tenantId'), livemode: p('s.livemode'), id: p('s.sessionId') })}
      returning 1
    ), ${countCtes('views', { as: 'viewed' })}${shape.endsWith('+outcome') ? sql`, ${countCtes('completes', { as: 'outcome' })}` : sql``}, ${countCtes(countedAs(shape.startsWith('eligible') ? 'eligible' : 'disqualified'), { day: viewDay })}
    select (select count(*) from closed)::int as closed, (select count(*) from released)::int as released, (select count(*) from landed)::int as landed
  `);

async function closeSession(tx: Tx, session: FlowSessionRow, doc: FlowDocumentShape, held: Held, verdict: 'eligible' | 'disqualified', submissionId: string, at: Date) {
  const outcome = doc.steps.find((s) => s.kind === 'outcome');
  // The verdict and a late view both bump the flow-level row of the day: different shards, never one row twice.
  const shard = randomInt(STATS_SHARDS);
  await closeStatement.execute(tx, `${verdict}${outcome ? '+outcome' : ''}`, {
    s: countedValues(session, at),
    close: { verdict, submissionId, released: JSON.stringify(Object.fromEntries(Object.keys(held).map((id) => [id, {}]))) },
    viewed: countValues(VIEW_MARK, '', (shard + 1) % STATS_SHARDS),
    ...(outcome && { outcome: countValues(`completed:${outcome.id}`, outcome.id) }),
    count: countValues(countedAs(verdict), '', shard),
  });
}

/**
 * POST …/sessions/{id}/submit (DESIGN decision 24): the held medical answers go through the deterministic
 * engine against the questionnaire version the session's flow version pinned. A run with an unsaved clinical
 * step or a required item unanswered is `incomplete`: nothing is recorded and the session stays open. An
 * eligible or disqualified run records an intake submission (`source: flow`, with the clinical-plane hash in
 * the certificate), its events and counts, and closes the session, all in one transaction. `signer`: the
 * service's, so that the certificate is signed without reading the signing key (issue 35).
 */
export async function submitSession(db: Db, embed: FlowEmbed, sessionId: string, input: SubmitInput, requestId: string | null, signer: CertificateSigner) {
  // Under an Idempotency-Key the request already runs in a transaction: no savepoint, its failure rolls it all back.
  return joinTransaction(db, async (tx) => {
    const session = await requireSession(tx, embed, sessionId, { lock: true });
    if (session.status === 'completed') throw sessionCompleted();
    const pinned = await loadPinnedVersion(tx, embed, session.flowVersionId);
    const doc = pinned.version.document;
    // The outcome copy is the arm's; the clinical plane (what the engine and certificate see) is the version's, the same in both arms.
    const shown = await armDocumentOf(tx, embed, session, pinned);
    const held = await heldSteps(tx, session);
    const person = personOf(pinned, held, heldMedicalAnswers(pinned, held), input);
    // The engine reads the reconciled facts: a fact item left unanswered takes the contact step's value.
    const answers = answersWithFacts(pinned.questionnaire.document, heldMedicalAnswers(pinned, held), person.facts);
    const at = now();
    const sandbox = !embed.livemode;

    // Checked before recordSubmission, which would refuse an incomplete run with a 422.
    const unsaved = clinicalSteps(doc).some((s) => !(s.id in held));
    const verdict = unsaved ? 'incomplete' : evaluate(pinned.questionnaire.document, answers, { asOf: asOfDay(at) }).verdict;
    if (verdict === 'incomplete') return { sessionId: session.id, sandbox, ...sessionOutcome(shown, 'incomplete') };

    const noDateOfBirth = dateOfBirthRequired('patient', 'This flow asks for no date of birth; add a contact step to it.');
    const matched = await publicPatient(tx, embedActor(embed), person, noDateOfBirth, requestId);
    const { patient, mismatch } = matched;
    if (person.smsConsent) await recordSmsConsent(tx, embed, matched, person.phone);
    const ids = { flowId: session.flowId, sessionId: session.id };
    // The run's events go in the submission's own insert, after `intake.submission.created`, in the order they always had.
    const runEvents = (submissionId: string, evaluation: { verdict: string }) =>
      evaluation.verdict === 'eligible'
        ? [
            newEvent('flow.qualified', { ...ids, submissionId, verdict: 'eligible' }),
            newEvent('flow.session.qualified', { ...ids, verdict: 'eligible' }),
            newEvent('flow.session.completed', { ...ids, verdict: 'eligible' }),
          ]
        : [newEvent('flow.disqualified', { ...ids, verdict: 'disqualified' }), newEvent('flow.session.completed', { ...ids, verdict: 'disqualified' })];
    const { row: submission, evaluation } = await recordSubmission(
      tx,
      embed,
      pinned.questionnaire,
      {
        source: 'flow',
        patientId: patient.id,
        embedKeyId: embed.keyId,
        flowId: session.flowId,
        flowSessionId: session.id,
        clinicalPlaneHash: pinned.version.clinicalPlaneHash,
        facts: submissionFacts(person, person.facts),
        identityMismatch: mismatch,
      },
      answers,
      signer,
      at,
      runEvents,
    );
    let checkoutUrl: string | null = null;
    if (evaluation.verdict === 'eligible') {
      const run = { ...ids, submissionId: submission.id };
      // The tenant's flags matter only to a flow with a checkout handoff: no read for the others.
      checkoutUrl = doc.settings.checkout ? checkoutUrlFor(doc, await tenantFeatures(tx, embed.tenantId), run, at) : null;
      await enqueueConversionPostbacks(tx, embed, doc, run);
    }
    const closed = evaluation.verdict === 'eligible' ? 'eligible' : 'disqualified';
    await closeSession(tx, session, doc, held, closed, submission.id, at);

    return {
      sessionId: session.id,
      sandbox,
      ...sessionOutcome(shown, closed),
      ...recordedOutcome(pinned.questionnaire.document, submission),
      submissionId: submission.id,
      ...(submission.certificate && { certificate: submission.certificate }),
      ...(checkoutUrl && { checkoutUrl }),
    };
  });
}
