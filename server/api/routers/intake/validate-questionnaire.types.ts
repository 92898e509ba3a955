import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { QUESTIONNAIRE_SCOPES } from './questionnaire.types';

export const validateQuestionnaireMeta: OpenApiMeta<ProcedureMeta> = {
  scope: QUESTIONNAIRE_SCOPES,
  // A dry run writes nothing, not even a stored response for an Idempotency-Key: there is nothing to replay.
  idempotent: false,
  openapi: {
    method: 'POST',
    path: '/intake/questionnaires/validate',
    tags: ['intake'],
    summary: 'Check a questionnaire document as publication would, without publishing it (a dry run: nothing is written)',
    description:
      'The body is the questionnaire document, as for `POST /intake/questionnaires`. A document publication would refuse gets the same 400 (`invalid_questionnaire`: `param` names the first problem, `details` lists every one, each naming its item); one it would accept gets 200 with its content hash and the version it would become (or the identical version it would answer with).',
    errorResponses: { 400: 'The document fails validation (param names the problem, e.g. items.3.enableWhen) or names no protocol of this account and mode', 403: 'Missing catalog.manage or intake.review' },
  },
};
// As for publication, the document is checked by the one questionnaire validator in the domain; here it is only required to be an object.
export const ZValidateQuestionnaireRequest = z.looseObject({}).meta({ description: 'A questionnaire document (see Questionnaire.document)' });
export const ZValidateQuestionnaireResponse = z
  .object({
    object: z.literal('questionnaire_check').meta({ description: 'Always `questionnaire_check`' }),
    valid: z.literal(true).meta({ description: 'Always true: a document that fails validation gets a 400 instead' }),
    key: z.string().meta({ description: "The document's key" }),
    contentHash: z.string().meta({ description: 'SHA-256 (hex) of the RFC 8785 canonical JSON of the document: what an approval would be bound to' }),
    nextVersion: z.number().int().meta({ description: 'The version number publishing it now would take (another publication in between takes it first)' }),
    approvedVersion: z.number().int().nullable().meta({ description: 'The version of this key in use, if any' }),
    sameAsApproved: z.boolean().meta({ description: 'True when the document is identical to the version in use (same content hash)' }),
    existingVersion: z.number().int().nullable().meta({
      description: 'The approved or pending version identical to the document (same content hash): publishing it answers 200 with that version and makes no new one; null when publishing makes `nextVersion`',
    }),
  })
  .meta({ id: 'QuestionnaireCheck' });
