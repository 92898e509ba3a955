import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { MAX_ALLOWED_ORIGINS } from '@/server/domain/embed/origins';

const zName = z.string().trim().max(200).nullable().meta({ description: "The team's label for the key (where it is embedded)" });
// Each origin's shape is checked by the domain, which names the bad one as `allowedOrigins.<i>`.
const zOrigins = z
  .array(z.string().max(300))
  .max(MAX_ALLOWED_ORIGINS)
  .meta({
    description: `Exact https://host[:port] origins (http only for localhost), or https://*.example.com for every subdomain (not example.com itself); up to ${MAX_ALLOWED_ORIGINS}`,
  });
const zFlowId = z
  .string()
  .min(1)
  .max(100)
  .nullable()
  .optional()
  .meta({ description: 'The flow this key serves (a flow of this account and mode), or null for public intake only' });
const zQuestionnaireKeys = z
  .array(z.string().trim().min(1).max(100))
  .max(100)
  .meta({ description: 'Questionnaires this key may serve for public intake; empty means every approved one' });

export const ZEmbedKey = z
  .object({
    id: z.string().meta({ description: 'The public key itself (emb_…): safe to put in a web page' }),
    name: z.string().nullable(),
    livemode: z.boolean(),
    allowedOrigins: z.array(z.string()),
    flowId: z.string().nullable(),
    questionnaireKeys: z.array(z.string()),
    revokedAt: zDateTime.nullable(),
    createdAt: zDateTime,
    updatedAt: zDateTime,
  })
  .meta({ id: 'EmbedKey' });

export const ZCreateEmbedKey = z
  .strictObject({
    name: zName.optional(),
    allowedOrigins: zOrigins,
    flowId: zFlowId,
    questionnaireKeys: zQuestionnaireKeys.optional(),
  })
  .meta({ id: 'CreateEmbedKey' });

export const ZUpdateEmbedKey = z
  .strictObject({ name: zName.optional(), allowedOrigins: zOrigins.optional(), flowId: zFlowId, questionnaireKeys: zQuestionnaireKeys.optional() })
  .meta({ id: 'UpdateEmbedKey' });
