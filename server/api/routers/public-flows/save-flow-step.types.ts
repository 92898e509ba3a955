import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { SESSION_ERRORS, zEmbedKey, zSessionId } from './public-flow.types';

export const saveFlowStepMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/public/flows/{embedKey}/sessions/{id}/steps',
    tags: ['public flows'],
    protect: false,
    summary: "Saves one step's answers (held server-side, never echoed); no verdict until submit",
    description:
      'Answers by kind: medical {<linkId>: value} for the items of this step only; quiz {<questionId>: value}; consent {accepted: true, version}; contact {name, email, state, dateOfBirth}; landing and outcome {}. Saving a step again replaces its answers.',
    errorResponses: {
      ...SESSION_ERRORS,
      400: "Unknown stepId (param stepId), an answer that does not fit (param answers.<id>; the contact step's ZIP, phone and address fields included), or a contact date of birth or state that differs from the one answered on a medical step (fact_mismatch; leave them out to take the answers'); values are never echoed and nothing is written",
      409: 'The session was already submitted (session_completed)',
    },
  },
};
export const ZSaveFlowStepRequest = z.strictObject({
  embedKey: zEmbedKey,
  id: zSessionId,
  stepId: z.string().min(1).max(64).meta({ description: 'A step of the session’s flow version' }),
  answers: z
    .record(z.string().min(1).max(64), z.unknown())
    .meta({ description: 'This step’s answers, keyed by question id (PHI: held apart, never echoed, not even in errors)' }),
});
export const ZSaveFlowStepResponse = z.object({
  ok: z.literal(true),
  nextStepId: z.string().nullable().meta({ description: 'The first step not saved yet; null when the run is ready to submit' }),
});
