import { keyOrUserProcedure } from '@/server/api/procedures';
import { createExperiment } from '@/server/domain/experiments/experiments';
import { createExperimentMeta, ZCreateExperimentRequest, ZCreateExperimentResponse } from './create-experiment.types';

export const createExperimentRoute = keyOrUserProcedure
  .meta(createExperimentMeta)
  .input(ZCreateExperimentRequest)
  .output(ZCreateExperimentResponse)
  .mutation(({ ctx, input: { id, ...input } }) => createExperiment(ctx.services.database.db, ctx.principal, id, input));
