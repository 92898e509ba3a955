import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { FLOWS_MANAGE, ZFlow } from './flow.types';

export const generateFlowMeta: OpenApiMeta<ProcedureMeta> = {
  scope: FLOWS_MANAGE,
  successStatus: 201,
  // The model is called mid-request (up to LLM_TIMEOUT_MS): never inside the idempotency transaction.
  externalEffects: true,
  openapi: {
    method: 'POST',
    path: '/flows/ai/generate',
    tags: ['flows'],
    summary: 'Draft a flow from a description: copy, theme and a marketing quiz wired to a matching approved questionnaire; saved as a draft (origin `ai`), never published',
    errorResponses: {
      403: 'Missing flows.manage; or AI generation is paused while a payment is overdue (billing_degraded, billing_restricted, billing_suspended)',
      422: 'No approved questionnaire in this mode (no_approved_questionnaire), or the generated draft failed validation (draft_invalid, every reason listed); nothing was saved',
      503: 'The language model did not answer in time or could not be reached; nothing was saved',
    },
  },
};

export const ZGenerateFlowRequest = z.object({
  description: z.string().trim().min(10).max(4000).meta({ description: 'What the flow is for, in plain words (the offer, the audience, the tone; no patient details)' }),
});

export const ZGenerateFlowResponse = ZFlow;
