import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZListEventsRequest, ZListEventsResponse } from './list-events.types';
import { ZGetEventRequest, ZGetEventResponse } from './get-event.types';
import { ZReplayEventRequest, ZReplayEventResponse } from './replay-event.types';

/**
 * The event log for a signed-in person in the console (tRPC only: /v1 reads it with machine API keys, spec
 * Authentication 7). Same inputs, outputs, scope, tenant and mode rules as the /v1 operations.
 */
export const consoleEventsMeta: ProcedureMeta = { scope: 'events.read' };
export const ZConsoleListEventsRequest = ZListEventsRequest;
export const ZConsoleListEventsResponse = ZListEventsResponse;
export const ZConsoleGetEventRequest = ZGetEventRequest;
export const ZConsoleGetEventResponse = ZGetEventResponse;
export const ZConsoleReplayEventRequest = ZReplayEventRequest;
export const ZConsoleReplayEventResponse = ZReplayEventResponse;
export const ZConsoleEventTypesResponse = z.array(z.string());
