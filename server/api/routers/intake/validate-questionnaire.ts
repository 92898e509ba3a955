import { keyOrUserProcedure } from '@/server/api/procedures';
import { dryRunQuestionnaire } from '@/server/domain/intake/questionnaire-dry-run';
import { validateQuestionnaireMeta, ZValidateQuestionnaireRequest, ZValidateQuestionnaireResponse } from './validate-questionnaire.types';

export const validateQuestionnaireRoute = keyOrUserProcedure
  .meta(validateQuestionnaireMeta)
  .input(ZValidateQuestionnaireRequest)
  .output(ZValidateQuestionnaireResponse)
  .mutation(({ ctx, input }) => dryRunQuestionnaire(ctx.services.database.db, ctx.principal, input));
