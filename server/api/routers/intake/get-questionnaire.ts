import { keyOrUserProcedure } from '@/server/api/procedures';
import { getQuestionnaire } from '@/server/domain/intake/questionnaires';
import { getQuestionnaireMeta, ZGetQuestionnaireRequest, ZGetQuestionnaireResponse } from './get-questionnaire.types';

export const getQuestionnaireRoute = keyOrUserProcedure
  .meta(getQuestionnaireMeta)
  .input(ZGetQuestionnaireRequest)
  .output(ZGetQuestionnaireResponse)
  .query(({ ctx, input }) => getQuestionnaire(ctx.services.database.db, ctx.principal, input.key, input.version));
