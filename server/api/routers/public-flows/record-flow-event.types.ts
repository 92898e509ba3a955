import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { BEACON_TYPES } from '@/server/domain/flows/runtime/beacons';
import { SESSION_ERRORS, zEmbedKey, zSessionId } from './public-flow.types';

export const recordFlowEventMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 202,
  openapi: {
    method: 'POST',
    path: '/public/flows/{embedKey}/sessions/{id}/events',
    tags: ['public flows'],
    protect: false,
    summary: 'A funnel beacon (view, step_viewed, step_completed): acknowledged on every retry, counted once per session and step',
    errorResponses: { ...SESSION_ERRORS, 400: 'A type outside the closed vocabulary (param type), or a missing or unknown stepId for step_* (param stepId)' },
  },
};
export const ZRecordFlowEventRequest = z.strictObject({
  embedKey: zEmbedKey,
  id: zSessionId,
  type: z.enum(BEACON_TYPES).meta({ description: 'view | step_viewed | step_completed' }),
  stepId: z.string().min(1).max(64).optional().meta({ description: 'Required for step_viewed and step_completed: a step of the session’s version' }),
});
export const ZRecordFlowEventResponse = z.object({ ok: z.literal(true) });
