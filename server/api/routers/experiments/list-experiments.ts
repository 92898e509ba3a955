import { keyOrUserProcedure } from '@/server/api/procedures';
import { listExperiments } from '@/server/domain/experiments/experiments';
import { listExperimentsMeta, ZListExperimentsRequest, ZListExperimentsResponse } from './list-experiments.types';

export const listExperimentsRoute = keyOrUserProcedure
  .meta(listExperimentsMeta)
  .input(ZListExperimentsRequest)
  .output(ZListExperimentsResponse)
  .query(({ ctx, input }) => listExperiments(ctx.services.database.db, ctx.principal, input.id, { limit: input.limit, startingAfter: input.starting_after }));
