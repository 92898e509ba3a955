import { requireAlsoScope } from '@/server/api/middlewares/authorize';
import { keyOrUserProcedure } from '@/server/api/procedures';
import { stopExperiment } from '@/server/domain/experiments/experiments';
import { EXPERIMENTS_ALSO_NEED } from './experiment.types';
import { stopExperimentMeta, ZStopExperimentRequest, ZStopExperimentResponse } from './stop-experiment.types';

export const stopExperimentRoute = keyOrUserProcedure
  .use(requireAlsoScope(EXPERIMENTS_ALSO_NEED))
  .meta(stopExperimentMeta)
  .input(ZStopExperimentRequest)
  .output(ZStopExperimentResponse)
  .mutation(({ ctx, input }) => stopExperiment(ctx.services.database.db, ctx.principal, input.expId, { winnerVariant: input.winnerVariant }));
