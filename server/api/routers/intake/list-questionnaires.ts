import { keyOrUserProcedure } from '@/server/api/procedures';
import { listApprovedQuestionnaires } from '@/server/domain/intake/questionnaires';
import { listQuestionnairesMeta, ZListQuestionnairesRequest, ZListQuestionnairesResponse } from './list-questionnaires.types';

export const listQuestionnairesRoute = keyOrUserProcedure
  .meta(listQuestionnairesMeta)
  .input(ZListQuestionnairesRequest)
  .output(ZListQuestionnairesResponse)
  .query(({ ctx, input }) => listApprovedQuestionnaires(ctx.services.database.db, ctx.principal, { limit: input.limit, startingAfter: input.starting_after }));
