import { keyOrUserProcedure } from '@/server/api/procedures';
import { stopExperiment } from '@/server/domain/experiments/experiments';
import { stopExperimentMeta, ZStopExperimentRequest, ZStopExperimentResponse } from './stop-experiment.types';

export const stopExperimentRoute = keyOrUserProcedure
  .meta(stopExperimentMeta)
  .input(ZStopExperimentRequest)
  .output(ZStopExperimentResponse)
  .mutation(({ ctx, input }) => stopExperiment(ctx.services.database.db, ctx.principal, input.expId, { winnerVariant: input.winnerVariant }));
