import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { FLOWS_MANAGE, ZFlow, zFlowDocumentInput, zFlowName } from './flow.types';

export const createFlowMeta: OpenApiMeta<ProcedureMeta> = {
  scope: FLOWS_MANAGE,
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/flows',
    tags: ['flows'],
    summary: 'Create a flow: its draft document is checked and saved; nothing is published',
    errorResponses: { 400: 'The document fails validation (param names the step and field, e.g. document.steps.2.blocks.headline)', 403: 'Missing flows.manage' },
  },
};
export const ZCreateFlowRequest = z.strictObject({ name: zFlowName, document: zFlowDocumentInput });
export const ZCreateFlowResponse = ZFlow;
