import { router } from '@/server/api/trpc';
import { getEventRoute } from './get-event';
import { listEventsRoute } from './list-events';
import { replayEventRoute } from './replay-event';

// GET /developer/events/stream (Server-Sent Events) is served by server/http/event-stream.ts before these.
export const eventsRouter = router({
  listEvents: listEventsRoute,
  getEvent: getEventRoute,
  replayEvent: replayEventRoute,
});
