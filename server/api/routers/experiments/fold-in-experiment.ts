import { requireAlsoScope } from '@/server/api/middlewares/authorize';
import { keyOrUserProcedure } from '@/server/api/procedures';
import { foldInExperiment } from '@/server/domain/experiments/experiments';
import { EXPERIMENTS_ALSO_NEED } from './experiment.types';
import { foldInExperimentMeta, ZFoldInExperimentRequest, ZFoldInExperimentResponse } from './fold-in-experiment.types';

export const foldInExperimentRoute = keyOrUserProcedure
  .use(requireAlsoScope(EXPERIMENTS_ALSO_NEED))
  .meta(foldInExperimentMeta)
  .input(ZFoldInExperimentRequest)
  .output(ZFoldInExperimentResponse)
  .mutation(({ ctx, input }) => foldInExperiment(ctx.services.database.db, ctx.principal, input.expId));
