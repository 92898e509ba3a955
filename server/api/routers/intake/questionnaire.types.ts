import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { ZQuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';

/** Who may read and publish questionnaires: clinic staff who manage the catalog, and providers. */
export const QUESTIONNAIRE_SCOPES = ['catalog.manage', 'intake.review'] as const;

export const ZQuestionnaire = z
  .object({
    id: z.string().meta({ description: 'Questionnaire version id (iq_…); each version has its own' }),
    object: z.literal('questionnaire').meta({ description: 'Always `questionnaire`' }),
    livemode: z.boolean().meta({ description: 'True for live, false for sandbox' }),
    key: z.string().meta({ description: 'Stable name shared by every version of the questionnaire' }),
    version: z.number().int().meta({ description: 'Version number within the key, from 1' }),
    status: z.enum(['draft', 'pending', 'approved', 'retired', 'superseded']).meta({
      description:
        '`pending` until a provider approves it; `approved` is the usable version; `retired` when a newer version was approved; `superseded` when a newer version was approved while this one was still pending (it can no longer be approved)',
    }),
    origin: z.enum(['staff', 'ai', 'fhir']).meta({ description: '`staff` (published through the API), `ai` (an AI draft) or `fhir` (imported from a FHIR Questionnaire)' }),
    title: z.string().meta({ description: "The document's title" }),
    document: ZQuestionnaireDocument.meta({ description: 'The questionnaire document: items, conditions and rules' }),
    contentHash: z.string().meta({ description: 'SHA-256 (hex) of the RFC 8785 canonical JSON of `document`: what an approval is bound to' }),
    createdBy: z.string().meta({ description: 'User or API key id that created the version' }),
    approvedBy: z.string().nullable().meta({ description: 'The approving provider’s user id' }),
    approvedAt: zDateTime.nullable(),
    approvalNote: z.string().nullable().meta({ description: "The provider's note at approval" }),
    retiredAt: zDateTime.nullable(),
    supersededBy: z.string().nullable().meta({ description: 'For a `superseded` version: the approved version (iq_…) whose approval superseded it' }),
    supersededAt: zDateTime.nullable(),
    createdAt: zDateTime,
    updatedAt: zDateTime,
  })
  .meta({ id: 'Questionnaire' });

export const ZQuestionnaireList = z.array(ZQuestionnaire);
