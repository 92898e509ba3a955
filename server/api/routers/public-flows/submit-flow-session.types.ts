import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { SESSION_ERRORS, ZOutcomeCopy, ZRunVerdict, zEmbedKey, zSessionId } from './public-flow.types';

export const submitFlowSessionMeta: OpenApiMeta<ProcedureMeta> = {
  idempotencyRequired: true,
  openapi: {
    method: 'POST',
    path: '/public/flows/{embedKey}/sessions/{id}/submit',
    tags: ['public flows'],
    protect: false,
    summary: "Hands the run's held answers to the deterministic intake engine; Idempotency-Key required",
    description:
      'eligible: a certificate and an intake submission (source flow) in the provider review queue; disqualified: a submission, no certificate; incomplete: an unsaved clinical step or a required question unanswered, nothing recorded and the session stays open (submit again with a new Idempotency-Key).',
    errorResponses: {
      ...SESSION_ERRORS,
      400: "Missing Idempotency-Key, a bad patient field (param patient.<field>), a name or e-mail that differs from the contact step's (contact_mismatch), or a contact date of birth or state that differs from the answers (fact_mismatch); values are never echoed and nothing is written",
      409: 'Already submitted (session_completed), or the Idempotency-Key reused with another body or in flight',
    },
  },
};
export const ZSubmitFlowSessionRequest = z.strictObject({
  embedKey: zEmbedKey,
  id: zSessionId,
  patient: z
    .strictObject({
      name: z.string().trim().min(1).max(200).meta({ description: "Full name; the last word is kept as the last name. Must agree with the contact step's name (ignoring case), which is the one kept" }),
      email: z
        .personEmail()
        .max(254)
        .meta({ description: "Must agree with the contact step's e-mail (ignoring case). A live patient with this address is matched; one whose date of birth, sex at birth or last name differs is flagged identity_mismatch, never changed" }),
    })
    .meta({ description: 'Who is answering (PHI: kept on the patient record only; in sandbox not kept at all)' }),
});
export const ZSubmitFlowSessionResponse = z
  .object({
    sessionId: z.string(),
    verdict: ZRunVerdict,
    ...ZOutcomeCopy,
    sandbox: z.boolean(),
    submissionId: z.string().optional().meta({ description: 'The intake submission (isub_…), for eligible and disqualified runs' }),
    certificate: z.string().optional().meta({ description: 'Compact EdDSA JWS of an eligible run, with the flow’s clinical-plane hash (cph); verify with GET /certificates/jwks.json' }),
    checkoutUrl: z.string().optional().meta({ description: 'The clinic store with a signed fr_token; only with the flow_checkout feature and a checkout setting' }),
  })
  .meta({ id: 'FlowSubmitResult' });
