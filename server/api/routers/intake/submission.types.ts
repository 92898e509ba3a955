import * as z from '@/server/lib/zod';
import { zDateTime, zId } from '@/server/api/schemas/common';

export const ZSubmissionIdentity = z
  .object({
    status: z.enum(['mismatch', 'resolved']).meta({ description: 'mismatch: the blocking flag `identity_mismatch`, approval refused (409 identity_unresolved) until resolved; resolved: decided' }),
    fields: z.array(z.enum(['dateOfBirth', 'sexAtBirth', 'lastName'])).meta({ description: 'Which facts of the matched patient differ (names only, never values)' }),
    resolution: z.enum(['existing', 'new']).nullable().meta({ description: 'existing: kept on the matched patient; new: moved to a patient created from the submission' }),
    resolvedBy: z.string().nullable().meta({ description: 'Who resolved it (usr_…)' }),
    resolvedAt: zDateTime.nullable().meta({ description: 'When it was resolved' }),
  })
  .meta({ id: 'IntakeSubmissionIdentity' });

// The record as every submission endpoint returns it: ids, verdicts and rule ids, never answers.
export const ZIntakeSubmission = z
  .object({
    id: z.string().meta({ description: 'Submission id (isub_…)' }),
    object: z.literal('intake_submission').meta({ description: 'Always `intake_submission`' }),
    livemode: z.boolean().meta({ description: 'True for live, false for sandbox' }),
    questionnaireKey: z.string().meta({ description: 'The questionnaire answered' }),
    questionnaireVersion: z.number().int().meta({ description: 'The approved version answered' }),
    patientId: z.string().meta({ description: 'The patient' }),
    source: z.enum(['in_app', 'public', 'hosted', 'flow']).meta({ description: 'Where it came from' }),
    reference: z
      .string()
      .nullable()
      .meta({ description: 'The short reference the patient was shown (e.g. 7KQ2-M9XD; no PHI); find it with GET /intake/submissions?reference=. Null on submissions older than references' }),
    status: z.enum(['pending_review', 'disqualified', 'approved', 'rejected']).meta({ description: 'pending_review (eligible, flags allowed) | disqualified | approved | rejected' }),
    verdict: z.enum(['eligible', 'disqualified', 'incomplete']).meta({ description: "The deterministic engine's verdict" }),
    missing: z.array(z.string()).meta({ description: 'Required enabled items left unanswered (linkIds)' }),
    hits: z.array(z.string()).meta({ description: 'Disqualifying rules matched (rule ids)' }),
    flags: z.array(z.string()).meta({ description: 'Review-flag rules matched (rule ids)' }),
    patientMessages: z.array(z.string()).meta({ description: "The matched rules' patient messages, in rule order" }),
    certificate: z.string().nullable().meta({ description: 'Compact EdDSA JWS of an eligible verdict (verify with GET /certificates/jwks.json)' }),
    orderId: z.string().nullable().meta({ description: 'The order created when a provider approved it' }),
    reviewedBy: z.string().nullable().meta({ description: 'The reviewing provider (usr_…)' }),
    reviewedAt: zDateTime.nullable().meta({ description: 'When it was reviewed' }),
    identity: ZSubmissionIdentity.nullable().meta({ description: 'The patient-matching flag: null unless the submission matched a patient whose identity facts differ' }),
    createdAt: zDateTime,
  })
  .meta({ id: 'IntakeSubmission' });

export const zSubmissionId = z.object({ id: zId('Intake submission') });
