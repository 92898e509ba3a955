import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { FLOWS_MANAGE, ZPublication } from './flow.types';

export const publishFlowMeta: OpenApiMeta<ProcedureMeta> = {
  scope: FLOWS_MANAGE,
  openapi: {
    method: 'POST',
    path: '/flows/{id}/publish',
    tags: ['flows'],
    summary: "Publish the draft as the next version: at once when its clinical-plane hash is the one a provider last approved for this flow (that approver is recorded again), else pending a provider's approval",
    description:
      'The version pins the questionnaire’s current approved version. A version still waiting for approval from an earlier publication is withdrawn. Publication emits `flow.published`.',
    errorResponses: {
      400: 'The draft cannot be published (param names the field: settings.questionnaireKey without an approved version, steps.<i>.linkIds.<j>, settings.protocolId, settings.conversionPostbacks.<i>)',
      403: 'Missing flows.manage',
      404: 'No such flow on this tenant in this mode',
      409: 'The flow is archived',
    },
  },
};
export const ZPublishFlowRequest = z.object({ id: zId('Flow') });
export const ZPublishFlowResponse = ZPublication;
