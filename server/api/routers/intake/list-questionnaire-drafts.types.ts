import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { QUESTIONNAIRE_SCOPES, ZQuestionnaireList } from './questionnaire.types';

export const listQuestionnaireDraftsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: QUESTIONNAIRE_SCOPES,
  openapi: {
    method: 'GET',
    path: '/intake/questionnaires/drafts',
    tags: ['intake'],
    summary: 'Versions awaiting approval (`draft` or `pending`, staff-written or AI drafts), newest first',
    errorResponses: { 400: 'Bad page size or cursor', 403: 'Missing catalog.manage or intake.review' },
  },
};
export const ZListQuestionnaireDraftsRequest = z.object({ limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListQuestionnaireDraftsResponse = ZQuestionnaireList;
