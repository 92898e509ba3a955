import { keyOrUserProcedure } from '@/server/api/procedures';
import { publishQuestionnaire } from '@/server/domain/intake/questionnaires';
import { publishQuestionnaireMeta, ZPublishQuestionnaireRequest, ZPublishQuestionnaireResponse } from './publish-questionnaire.types';

/** 201 with the new version; 200 with the existing one when the document is identical to it (DESIGN decision 45). */
export const publishQuestionnaireRoute = keyOrUserProcedure
  .meta(publishQuestionnaireMeta)
  .input(ZPublishQuestionnaireRequest)
  .output(ZPublishQuestionnaireResponse)
  .mutation(async ({ ctx, input }) => {
    const { questionnaire, created } = await publishQuestionnaire(ctx.services.database.db, ctx.principal, input);
    if (!created) ctx.state.status = 200;
    return questionnaire;
  });
