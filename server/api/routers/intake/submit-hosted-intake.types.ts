import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zAnswers, ZPatientOutcome, zToken } from './public-intake.types';

export const submitHostedIntakeMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/public/intake/hosted/{token}/submissions',
    // No credential: the embed key (or the hosted link's token) in the path is the whole authority.
    protect: false,
    tags: ['public intake'],
    summary: "The patient's answers through a one-time hosted link; the link is spent in the same transaction. Send Idempotency-Key to retry safely.",
    errorResponses: {
      400: 'An answer that does not fit its item (param answers.<linkId>; the value is never echoed)',
      404: 'Unknown, expired or already used link',
      422: 'Required questions unanswered (intake_incomplete); the link stays usable',
      429: 'Too many requests from this address',
    },
  },
};
export const ZSubmitHostedIntakeRequest = z.strictObject({ token: zToken, answers: zAnswers });
export const ZSubmitHostedIntakeResponse = z.object(ZPatientOutcome).meta({ id: 'PatientOutcome', description: 'What the patient is told; no rule ids' });
