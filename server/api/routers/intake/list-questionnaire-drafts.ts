import { keyOrUserProcedure } from '@/server/api/procedures';
import { listQuestionnaireDrafts } from '@/server/domain/intake/questionnaires';
import { listQuestionnaireDraftsMeta, ZListQuestionnaireDraftsRequest, ZListQuestionnaireDraftsResponse } from './list-questionnaire-drafts.types';

export const listQuestionnaireDraftsRoute = keyOrUserProcedure
  .meta(listQuestionnaireDraftsMeta)
  .input(ZListQuestionnaireDraftsRequest)
  .output(ZListQuestionnaireDraftsResponse)
  .query(({ ctx, input }) => listQuestionnaireDrafts(ctx.services.database.db, ctx.principal, { limit: input.limit, startingAfter: input.starting_after }));
