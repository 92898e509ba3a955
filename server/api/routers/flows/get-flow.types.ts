import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { FLOWS_READ_SCOPES, ZFlow } from './flow.types';

export const getFlowMeta: OpenApiMeta<ProcedureMeta> = {
  scope: FLOWS_READ_SCOPES,
  openapi: {
    method: 'GET',
    path: '/flows/{id}',
    tags: ['flows'],
    summary: 'One flow: its draft, active and pending versions, and the clinical changes waiting for a provider',
    errorResponses: { 403: 'Missing flows.manage or intake.review', 404: 'No such flow on this tenant in this mode' },
  },
};
export const ZGetFlowRequest = z.object({ id: zId('Flow') });
export const ZGetFlowResponse = ZFlow;
