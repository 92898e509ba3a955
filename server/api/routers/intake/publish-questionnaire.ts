import { keyOrUserProcedure } from '@/server/api/procedures';
import { publishQuestionnaire } from '@/server/domain/intake/questionnaires';
import { publishQuestionnaireMeta, ZPublishQuestionnaireRequest, ZPublishQuestionnaireResponse } from './publish-questionnaire.types';

export const publishQuestionnaireRoute = keyOrUserProcedure
  .meta(publishQuestionnaireMeta)
  .input(ZPublishQuestionnaireRequest)
  .output(ZPublishQuestionnaireResponse)
  .mutation(({ ctx, input }) => publishQuestionnaire(ctx.services.database.db, ctx.principal, input));
