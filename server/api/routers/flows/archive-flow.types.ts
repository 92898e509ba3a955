import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { FLOWS_MANAGE, ZFlow } from './flow.types';

export const archiveFlowMeta: OpenApiMeta<ProcedureMeta> = {
  scope: FLOWS_MANAGE,
  openapi: {
    method: 'POST',
    path: '/flows/{id}/archive',
    tags: ['flows'],
    summary: 'Archive a flow: its embed keys answer 404, it can no longer be edited or published, and a version waiting for approval is withdrawn; archiving again changes nothing',
    errorResponses: { 403: 'Missing flows.manage', 404: 'No such flow on this tenant in this mode' },
  },
};
export const ZArchiveFlowRequest = z.object({ id: zId('Flow') });
export const ZArchiveFlowResponse = ZFlow;
