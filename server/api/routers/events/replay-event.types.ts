import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZReplayResult } from './event.types';

export const replayEventMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'events.read',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/developer/events/{id}/replay',
    tags: ['developer'],
    summary: 'Re-deliver an event to every subscribed enabled endpoint, or to one (machine API keys only)',
    errorResponses: { 403: 'Not a machine API key, or missing events.read', 404: 'No such event or endpoint on this tenant' },
  },
};
export const ZReplayEventRequest = z.strictObject({
  id: zId('Event'),
  endpointId: zId('Webhook endpoint').optional().meta({ description: 'One endpoint; omitted means every subscribed endpoint' }),
});
export const ZReplayEventResponse = ZReplayResult;
