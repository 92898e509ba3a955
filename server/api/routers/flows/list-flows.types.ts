import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { FLOWS_READ_SCOPES, ZFlow } from './flow.types';

export const listFlowsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: FLOWS_READ_SCOPES,
  openapi: {
    method: 'GET',
    path: '/flows',
    tags: ['flows'],
    summary: "List the mode's flows, newest first (archived ones included)",
    errorResponses: { 400: 'Bad page size or cursor', 403: 'Missing flows.manage or intake.review' },
  },
};
export const ZListFlowsRequest = z.object({ limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListFlowsResponse = z.array(ZFlow);
