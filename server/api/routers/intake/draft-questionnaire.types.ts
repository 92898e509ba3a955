import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { QUESTIONNAIRE_SCOPES, ZQuestionnaire } from './questionnaire.types';

export const draftQuestionnaireMeta: OpenApiMeta<ProcedureMeta> = {
  scope: QUESTIONNAIRE_SCOPES,
  successStatus: 201,
  // The model is called mid-request (up to LLM_TIMEOUT_MS): never inside the idempotency transaction.
  externalEffects: true,
  openapi: {
    method: 'POST',
    path: '/intake/questionnaires/ai-draft',
    tags: ['intake'],
    summary: "Draft a questionnaire from a description; saved `pending` (origin `ai`), inert until a provider approves it",
    errorResponses: {
      403: "The clinic's `flow_ai_freeform_medical` feature is off (feature_disabled), or missing catalog.manage or intake.review; or AI generation is paused while a payment is overdue (billing_degraded, billing_restricted, billing_suspended)",
      422: 'The generated draft failed validation (draft_invalid, every reason listed); nothing was saved',
      503: 'The language model did not answer in time or could not be reached; nothing was saved',
    },
  },
};
export const ZDraftQuestionnaireRequest = z.object({
  description: z.string().trim().min(10).max(4000).meta({ description: 'What the questionnaire is for, in plain words (no patient details)' }),
});
export const ZDraftQuestionnaireResponse = ZQuestionnaire;
