import { getEvent } from '@/server/domain/events/events';
import { apiKeyProcedure } from '@/server/api/procedures';
import { getEventMeta, ZGetEventRequest, ZGetEventResponse } from './get-event.types';

export const getEventRoute = apiKeyProcedure
  .meta(getEventMeta)
  .input(ZGetEventRequest)
  .output(ZGetEventResponse)
  .query(({ ctx, input }) => getEvent(ctx.services.database.db, ctx.principal, input.id));
