import { router } from '@/server/api/trpc';
import { getEventRoute } from './get-event';
import { listEventsRoute } from './list-events';
import { replayEventRoute } from './replay-event';
import { consoleEventTypesRoute, consoleGetEventRoute, consoleListEventsRoute, consoleReplayEventRoute } from './event-log-views';

// GET /developer/events/stream (Server-Sent Events) is served by server/http/event-stream.ts before these.
export const eventsRouter = router({
  listEvents: listEventsRoute,
  getEvent: getEventRoute,
  replayEvent: replayEventRoute,
  // The same log for a signed-in member (tRPC only: /v1 reads events with API keys, spec Authentication 7).
  eventLog: consoleListEventsRoute,
  eventDetail: consoleGetEventRoute,
  replayFromConsole: consoleReplayEventRoute,
  eventTypes: consoleEventTypesRoute,
});
