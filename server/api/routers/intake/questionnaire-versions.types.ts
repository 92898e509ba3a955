import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { QUESTIONNAIRE_KEY } from '@/server/domain/intake/questionnaire-schema';
import { QUESTIONNAIRE_SCOPES, ZQuestionnaire } from './questionnaire.types';

/** The console's questionnaire library: whoever may read questionnaires over /v1 (catalog managers, providers). */
export const consoleQuestionnaireVersionsMeta: ProcedureMeta = { scope: [...QUESTIONNAIRE_SCOPES] };

export const ZQuestionnaireVersionsRequest = z.object({
  key: z.string().regex(QUESTIONNAIRE_KEY, 'a questionnaire key').optional(),
});
export const ZQuestionnaireVersionsResponse = z.array(ZQuestionnaire);

