import * as z from '@/server/lib/zod';
import { zDateTime, zId } from '@/server/api/schemas/common';

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
    createdAt: zDateTime,
  })
  .meta({ id: 'IntakeSubmission' });

export const zSubmissionId = z.object({ id: zId('Intake submission') });
