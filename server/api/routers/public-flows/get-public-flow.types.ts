import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PUBLIC_FLOW_ERRORS, ZPublicFlow, zEmbedKey } from './public-flow.types';

export const getPublicFlowMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/public/flows/{embedKey}',
    tags: ['public flows'],
    protect: false,
    summary: "The patient-safe definition of the flow the embed key serves (its active published version)",
    description: 'No credential: the embed key addresses the flow. Outside sandbox the Origin (or Referer) must be one the key allows. The hosted page is /f/{embedKey}.',
    errorResponses: PUBLIC_FLOW_ERRORS,
  },
};
export const ZGetPublicFlowRequest = z.object({ embedKey: zEmbedKey });
export const ZGetPublicFlowResponse = ZPublicFlow;
