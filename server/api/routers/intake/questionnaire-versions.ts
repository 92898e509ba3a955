import { sessionProcedure } from '@/server/api/procedures';
import { listQuestionnaireVersions } from '@/server/domain/intake/questionnaire-versions';
import { consoleQuestionnaireVersionsMeta, ZQuestionnaireVersionsRequest, ZQuestionnaireVersionsResponse } from './questionnaire-versions.types';

/** Every version of every questionnaire key (or of one), any state: the library, its diff and the approval page. */
export const consoleQuestionnaireVersionsRoute = sessionProcedure
  .meta(consoleQuestionnaireVersionsMeta)
  .input(ZQuestionnaireVersionsRequest)
  .output(ZQuestionnaireVersionsResponse)
  .query(({ ctx, input }) => listQuestionnaireVersions(ctx.services.database.db, ctx.principal, input.key));
