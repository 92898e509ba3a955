import { embedProcedure } from '@/server/api/procedures';
import { getPublicQuestionnaire } from '@/server/domain/intake/public-intake';
import { getPublicQuestionnaireMeta, ZGetPublicQuestionnaireRequest, ZGetPublicQuestionnaireResponse } from './get-public-questionnaire.types';

export const getPublicQuestionnaireRoute = embedProcedure
  .meta(getPublicQuestionnaireMeta)
  .input(ZGetPublicQuestionnaireRequest)
  .output(ZGetPublicQuestionnaireResponse)
  .query(({ ctx, input }) => getPublicQuestionnaire(ctx.services.database.db, ctx.embed, input.key));
