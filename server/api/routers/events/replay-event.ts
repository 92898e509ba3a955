import { replayEvent } from '@/server/domain/events/events';
import { apiKeyProcedure } from '@/server/api/procedures';
import { replayEventMeta, ZReplayEventRequest, ZReplayEventResponse } from './replay-event.types';

export const replayEventRoute = apiKeyProcedure
  .meta(replayEventMeta)
  .input(ZReplayEventRequest)
  .output(ZReplayEventResponse)
  .mutation(({ ctx, input }) => replayEvent(ctx.services.database.db, ctx.principal, input.id, input.endpointId));
