import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId, zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { FLOWS_READ_SCOPES, ZFlowVersion } from './flow.types';

export const listFlowVersionsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: FLOWS_READ_SCOPES,
  openapi: {
    method: 'GET',
    path: '/flows/{id}/versions',
    tags: ['flows'],
    summary: "A flow's versions (immutable snapshots), newest first",
    errorResponses: { 400: 'Bad page size or cursor', 403: 'Missing flows.manage or intake.review', 404: 'No such flow on this tenant in this mode' },
  },
};
export const ZListFlowVersionsRequest = z.object({ id: zId('Flow'), limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListFlowVersionsResponse = z.array(ZFlowVersion);
