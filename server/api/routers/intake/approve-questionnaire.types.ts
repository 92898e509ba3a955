import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZQuestionnaire } from './questionnaire.types';

export const approveQuestionnaireMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'intake.review',
  openapi: {
    method: 'POST',
    path: '/intake/questionnaires/{id}/approve',
    tags: ['intake'],
    summary:
      "A provider's approval: the version becomes the key's usable certified questionnaire, the previous one is retired and every older version still pending is superseded (no longer approvable)",
    errorResponses: {
      403: 'Not a provider session with intake.review, a verified NPI and two-factor authentication (API keys, admins, owners and operators never may)',
      404: 'No such questionnaire version in this tenant and mode',
      409: 'Not pending (already approved or retired), superseded (`questionnaire_superseded`: a newer version was approved while it was pending), or contentHash differs from the stored document',
      422: 'The document no longer passes validation, or its protocol is gone',
    },
  },
};
export const ZApproveQuestionnaireRequest = z.object({
  id: zId('Questionnaire version'),
  note: z.string().trim().min(1).max(2000).optional().meta({ description: "The provider's note, kept with the approval" }),
  contentHash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'a SHA-256 hex digest')
    .optional()
    .meta({ description: 'The contentHash of the version the provider reviewed; when sent, approval fails with 409 if the stored document differs' }),
});
export const ZApproveQuestionnaireResponse = ZQuestionnaire;
