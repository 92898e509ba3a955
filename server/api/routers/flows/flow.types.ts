import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { ZFlowDocument, ZFlowSettings } from '@/server/domain/flows/flow-schema';

/** Who manages flows, and who may read them: providers review what they are asked to approve. */
export const FLOWS_MANAGE = 'flows.manage';
export const FLOWS_READ_SCOPES = ['flows.manage', 'intake.review'] as const;

/** A flow document as the API shows it: the checkout secret is never returned, only its last four characters. */
export const ZFlowDocumentView = ZFlowDocument.extend({
  settings: ZFlowSettings.extend({
    checkout: z
      .strictObject({ storeUrl: z.string(), secretLast4: z.string().meta({ description: 'Last four characters of the checkout secret' }) })
      .optional()
      .meta({ description: 'The clinic store hand-off; send `secret` to change it, or leave it out to keep the stored one' }),
  }),
}).meta({ id: 'FlowDocument' });

export const ZFlowVersionSummary = z
  .object({
    id: z.string().meta({ description: 'Flow version id (fv_…)' }),
    number: z.number().int().meta({ description: 'Version number within the flow, from 1' }),
    status: z.enum(['pending_approval', 'published', 'superseded', 'withdrawn']).meta({
      description: '`pending_approval` until a provider approves; `published` is what patients get; `superseded` by a later publication; `withdrawn` when a newer publication or archiving replaced it before approval',
    }),
    clinicalPlaneHash: z.string().meta({ description: 'SHA-256 (hex) of the canonical clinical plane: questionnaire key, version, content hash and the clinical steps' }),
    questionnaire: z.object({ key: z.string(), version: z.number().int() }).meta({ description: 'The questionnaire version the clinical plane is pinned to' }),
    approvedBy: z.string().nullable().meta({ description: 'The provider whose approval of this clinical-plane hash stands behind the version' }),
    approvedAt: zDateTime.nullable(),
    publishedAt: zDateTime.nullable(),
  })
  .meta({ id: 'FlowVersionSummary' });

export const ZFlowVersion = ZFlowVersionSummary.extend({
  object: z.literal('flow_version'),
  flowId: z.string(),
  livemode: z.boolean(),
  document: ZFlowDocumentView,
  publishedBy: z.string().meta({ description: 'User or API key id that asked for the publication' }),
  approvedHere: z.boolean().meta({ description: 'True when a provider approved this very version; false when it re-used the approval of the same clinical-plane hash' }),
  createdAt: zDateTime,
}).meta({ id: 'FlowVersion' });

export const ZFlow = z
  .object({
    id: z.string().meta({ description: 'Flow id (flw_…)' }),
    object: z.literal('flow'),
    name: z.string(),
    status: z.enum(['active', 'archived']),
    livemode: z.boolean(),
    origin: z.enum(['staff', 'ai']).meta({ description: '`ai` for drafts made by POST /flows/ai/generate' }),
    draft: ZFlowDocumentView.meta({ description: 'The editable document; patients get the active version' }),
    draftClinicalPlaneHash: z.string().nullable().meta({ description: "The draft's clinical-plane hash against the questionnaire's current approved version; null when it has none" }),
    activeVersion: ZFlowVersionSummary.nullable(),
    pendingVersion: ZFlowVersionSummary.nullable(),
    pendingClinicalChanges: z
      .object({
        added: z.array(z.string()),
        removed: z.array(z.string()),
        changed: z.array(z.string()),
        questionnaireChanged: z.boolean(),
      })
      .nullable()
      .meta({ description: 'What a provider is asked to approve: clinical step ids of the pending version against the active one' }),
    embedKeys: z.array(z.string()).meta({ description: 'Ids of the unrevoked embed keys serving this flow' }),
    createdAt: zDateTime,
    updatedAt: zDateTime,
    archivedAt: zDateTime.nullable(),
  })
  .meta({ id: 'Flow' });

export const ZPublication = z
  .object({
    status: z.enum(['published', 'pending_approval']),
    flow: ZFlow,
    version: ZFlowVersion,
  })
  .meta({ id: 'FlowPublication' });

export const zFlowName = z.string().trim().min(1).max(200).meta({ description: "The team's name for the flow" });
// Checked by the flow validator in the domain, which names each problem's step and field.
export const zFlowDocumentInput = z.looseObject({}).meta({ description: 'A flow document: {steps, theme: {tokens}, settings}' });
