import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { QUESTIONNAIRE_SCOPES, ZQuestionnaire } from './questionnaire.types';

export const publishQuestionnaireMeta: OpenApiMeta<ProcedureMeta> = {
  scope: QUESTIONNAIRE_SCOPES,
  successStatus: 201,
  alsoSuccess: { status: 200, description: 'No new version: the document is identical to the approved version or to a pending one, which is returned' },
  openapi: {
    method: 'POST',
    path: '/intake/questionnaires',
    tags: ['intake'],
    summary: "Publish a new version of a questionnaire for a provider's approval (the next version of its key, `pending`)",
    description:
      'The body is the questionnaire document itself: `{key, title, description?, protocolId?, items, rules}`. A document identical (same `contentHash`) to the approved version of its key or to a version still pending makes no new version: the answer is 200 with that version.',
    successDescription: 'The new version, `pending`',
    errorResponses: {
      400: 'The document fails validation (param names the problem, e.g. items.3.enableWhen) or names no protocol of this account and mode',
      403: 'Missing catalog.manage or intake.review',
    },
  },
};
// The document is checked by the one questionnaire validator (schema + semantic checks) in the domain, so that
// every problem is reported the same way, naming its item; here it is only required to be an object.
export const ZPublishQuestionnaireRequest = z.looseObject({}).meta({ description: 'A questionnaire document (see Questionnaire.document)' });
export const ZPublishQuestionnaireResponse = ZQuestionnaire;
