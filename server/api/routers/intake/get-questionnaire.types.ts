import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { QUESTIONNAIRE_KEY } from '@/server/domain/intake/questionnaire-schema';
import { QUESTIONNAIRE_SCOPES, ZQuestionnaire } from './questionnaire.types';

export const getQuestionnaireMeta: OpenApiMeta<ProcedureMeta> = {
  scope: QUESTIONNAIRE_SCOPES,
  openapi: {
    method: 'GET',
    path: '/intake/questionnaires/{key}',
    tags: ['intake'],
    summary: 'The approved version of a questionnaire; with `version`, that version if it was ever approved (current or retired)',
    errorResponses: { 404: 'No approved questionnaire (or approved version) by that key in this tenant and mode' },
  },
};
export const ZGetQuestionnaireRequest = z.object({
  key: z.string().regex(QUESTIONNAIRE_KEY, 'a questionnaire key').meta({ description: 'Questionnaire key' }),
  version: z.number().int().min(1).max(1_000_000).optional().meta({ description: 'A version number; default the current approved one' }),
});
export const ZGetQuestionnaireResponse = ZQuestionnaire;
