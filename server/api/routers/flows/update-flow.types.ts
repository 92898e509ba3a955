import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { FLOWS_MANAGE, ZFlow, zFlowDocumentInput, zFlowName } from './flow.types';

export const updateFlowMeta: OpenApiMeta<ProcedureMeta> = {
  scope: FLOWS_MANAGE,
  openapi: {
    method: 'PATCH',
    path: '/flows/{id}',
    tags: ['flows'],
    summary: "Edit a flow's draft: its name, the whole document, or the copy of presentation steps (stepPatches); patients keep the active version until a publication",
    errorResponses: {
      400: 'The document fails validation (param document.<field>), or a step patch names a missing or clinical step (param stepPatches.<i>.stepId) or a bad block (stepPatches.<i>.blocks.<field>); nothing is saved',
      403: 'Missing flows.manage',
      404: 'No such flow on this tenant in this mode',
      409: 'The flow is archived',
    },
  },
};
export const ZStepPatch = z
  .strictObject({
    stepId: z.string().min(1).max(100).meta({ description: 'A landing, quiz or outcome step of the draft' }),
    blocks: z.record(z.string(), z.unknown()).meta({ description: 'Block fields to set on that step; null clears an optional field' }),
  })
  .meta({ id: 'FlowStepPatch' });
export const ZUpdateFlowRequest = z.strictObject({
  id: zId('Flow'),
  name: zFlowName.optional(),
  document: zFlowDocumentInput.optional().meta({ description: 'A whole new draft; a checkout without `secret` keeps the stored secret' }),
  stepPatches: z.array(ZStepPatch).max(30).optional().meta({ description: 'Copy changes to presentation steps, applied after `document`' }),
});
export const ZUpdateFlowResponse = ZFlow;
