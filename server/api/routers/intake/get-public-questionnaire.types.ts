import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZPatientQuestionnaire, zEmbedKey } from './public-intake.types';

export const getPublicQuestionnaireMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/public/intake/{embedKey}/questionnaires/{key}',
    // No credential: the embed key (or the hosted link's token) in the path is the whole authority.
    protect: false,
    tags: ['public intake'],
    summary: "The patient-safe view of an approved questionnaire the embed key serves (no rules, rule ids or disqualifier logic)",
    description: 'No credential: the embed key in the path addresses the clinic. Outside sandbox the Origin (or Referer) must be one the key allows.',
    errorResponses: {
      403: 'Origin not allowed for this key (origin_not_allowed)',
      404: 'Unknown or revoked embed key, or no approved questionnaire with this key that the embed key serves',
      429: 'Too many requests for this key from this address',
    },
  },
};
export const ZGetPublicQuestionnaireRequest = z.object({
  embedKey: zEmbedKey,
  key: z.string().min(1).max(64).meta({ description: 'Questionnaire key' }),
});
export const ZGetPublicQuestionnaireResponse = z.object({
  key: z.string(),
  version: z.number().int().meta({ description: 'The approved version served; submissions are evaluated against the current one' }),
  questionnaire: ZPatientQuestionnaire,
});
