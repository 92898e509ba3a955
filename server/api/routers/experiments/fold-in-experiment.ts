import { keyOrUserProcedure } from '@/server/api/procedures';
import { middleware } from '@/server/api/trpc';
import { hasScope } from '@/server/domain/developer/scopes';
import { foldInExperiment } from '@/server/domain/experiments/experiments';
import { errors } from '@/server/lib/errors';
import { FOLD_IN_ALSO_NEEDS, foldInExperimentMeta, ZFoldInExperimentRequest, ZFoldInExperimentResponse } from './fold-in-experiment.types';

// The meta's scope is "any of"; fold-in needs both, so the second is checked here.
const requireFlowsManage = middleware(async ({ ctx, next }) => {
  const { principal } = ctx as typeof ctx & { principal: { scopes: readonly string[] } };
  if (!hasScope(principal.scopes, FOLD_IN_ALSO_NEEDS)) throw errors.forbidden(`This credential lacks the '${FOLD_IN_ALSO_NEEDS}' scope required here.`, 'missing_scope');
  return next();
});

export const foldInExperimentRoute = keyOrUserProcedure
  .use(requireFlowsManage)
  .meta(foldInExperimentMeta)
  .input(ZFoldInExperimentRequest)
  .output(ZFoldInExperimentResponse)
  .mutation(({ ctx, input }) => foldInExperiment(ctx.services.database.db, ctx.principal, input.expId));
