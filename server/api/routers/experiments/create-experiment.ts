import { requireAlsoScope } from '@/server/api/middlewares/authorize';
import { keyOrUserProcedure } from '@/server/api/procedures';
import { createExperiment } from '@/server/domain/experiments/experiments';
import { EXPERIMENTS_ALSO_NEED } from './experiment.types';
import { createExperimentMeta, ZCreateExperimentRequest, ZCreateExperimentResponse } from './create-experiment.types';

export const createExperimentRoute = keyOrUserProcedure
  .use(requireAlsoScope(EXPERIMENTS_ALSO_NEED))
  .meta(createExperimentMeta)
  .input(ZCreateExperimentRequest)
  .output(ZCreateExperimentResponse)
  .mutation(({ ctx, input: { id, ...input } }) => createExperiment(ctx.services.database.db, ctx.principal, id, input));
