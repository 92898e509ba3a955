import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZEvent } from './event.types';

export const getEventMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'events.read',
  openapi: {
    method: 'GET',
    path: '/developer/events/{id}',
    tags: ['developer'],
    summary: 'One event (machine API keys only)',
    errorResponses: { 403: 'Not a machine API key, or missing events.read', 404: 'No such event on this tenant' },
  },
};
export const ZGetEventRequest = z.object({ id: zId('Event') });
export const ZGetEventResponse = ZEvent;
