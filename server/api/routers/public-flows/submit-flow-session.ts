import { embedProcedure } from '@/server/api/procedures';
import { submitSession } from '@/server/domain/flows/runtime/submit';
import { submitFlowSessionMeta, ZSubmitFlowSessionRequest, ZSubmitFlowSessionResponse } from './submit-flow-session.types';

export const submitFlowSessionRoute = embedProcedure
  .meta(submitFlowSessionMeta)
  .input(ZSubmitFlowSessionRequest)
  .output(ZSubmitFlowSessionResponse)
  .mutation(({ ctx, input }) =>
    // The config is the service's own object (the idempotency middleware copies database and auth per request): the signing key's cache key.
    submitSession(ctx.services.database.db, ctx.embed, input.id, { patient: input.patient }, ctx.state.requestId, { deps: ctx.services.auth, cacheKey: ctx.services.config }),
  );
