import { listEvents } from '@/server/domain/events/events';
import { apiKeyProcedure } from '@/server/api/procedures';
import { listEventsMeta, ZListEventsRequest, ZListEventsResponse } from './list-events.types';

export const listEventsRoute = apiKeyProcedure
  .meta(listEventsMeta)
  .input(ZListEventsRequest)
  .output(ZListEventsResponse)
  .query(({ ctx, input }) =>
    listEvents(ctx.services.database.db, ctx.principal, { type: input.type, limit: input.limit, startingAfter: input.starting_after }),
  );
