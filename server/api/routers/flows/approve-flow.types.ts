import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZPublication } from './flow.types';

export const approveFlowMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'intake.review',
  openapi: {
    method: 'POST',
    path: '/flows/{id}/approve',
    tags: ['flows'],
    summary: "A provider's approval of the version waiting for one: it is published with this provider recorded as approver",
    errorResponses: {
      403: 'Not a provider session with intake.review, a verified NPI and two-factor authentication (API keys, admins, owners and operators never may)',
      404: 'No such flow on this tenant in this mode',
      409: 'No version is waiting (no_pending_version), versionId or clinicalPlaneHash is not the waiting one’s (flow_changed), the pinned questionnaire was replaced (questionnaire_changed), or the flow is archived',
    },
  },
};
export const ZApproveFlowRequest = z.strictObject({
  id: zId('Flow'),
  versionId: z.string().min(1).max(100).optional().meta({ description: 'The pending version the provider reviewed; 409 if another is pending now' }),
  clinicalPlaneHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest')
    .optional()
    .meta({ description: 'The clinical-plane hash the provider reviewed; 409 if the pending version’s differs' }),
});
export const ZApproveFlowResponse = ZPublication;
