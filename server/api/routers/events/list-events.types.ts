import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { ZEventList } from './event.types';

export const listEventsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'events.read',
  openapi: {
    method: 'GET',
    path: '/developer/events',
    tags: ['developer'],
    summary: 'The event log, newest first (machine API keys only)',
    errorResponses: { 400: 'Unknown event type or bad page size', 403: 'Not a machine API key, or missing events.read' },
  },
};
export const ZListEventsRequest = z.object({
  type: z.string().max(100).optional().meta({ description: 'Only events of this type' }),
  limit: zLimit(100, 50),
  starting_after: zStartingAfter,
});
export const ZListEventsResponse = ZEventList;
