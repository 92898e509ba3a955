import { EVENT_TYPES } from '@/server/domain/events/catalog';
import { getEvent, listEvents, replayEvent } from '@/server/domain/events/events';
import { sessionProcedure } from '@/server/api/procedures';
import * as z from '@/server/lib/zod';
import {
  consoleEventsMeta,
  ZConsoleEventTypesResponse,
  ZConsoleGetEventRequest,
  ZConsoleGetEventResponse,
  ZConsoleListEventsRequest,
  ZConsoleListEventsResponse,
  ZConsoleReplayEventRequest,
  ZConsoleReplayEventResponse,
} from './event-log-views.types';

const events = sessionProcedure.meta(consoleEventsMeta);

export const consoleListEventsRoute = events
  .input(ZConsoleListEventsRequest)
  .output(ZConsoleListEventsResponse)
  .query(({ ctx, input }) => listEvents(ctx.services.database.db, ctx.principal, { type: input.type, limit: input.limit, startingAfter: input.starting_after }));

export const consoleGetEventRoute = events
  .input(ZConsoleGetEventRequest)
  .output(ZConsoleGetEventResponse)
  .query(({ ctx, input }) => getEvent(ctx.services.database.db, ctx.principal, input.id));

export const consoleReplayEventRoute = events
  .input(ZConsoleReplayEventRequest)
  .output(ZConsoleReplayEventResponse)
  .mutation(({ ctx, input }) => replayEvent(ctx.services.database.db, ctx.principal, input.id, input.endpointId));

export const consoleEventTypesRoute = events
  .input(z.object({}).optional())
  .output(ZConsoleEventTypesResponse)
  .query(() => [...EVENT_TYPES]);
