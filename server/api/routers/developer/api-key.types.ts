import * as z from '@/server/lib/zod';
import { zDateTime, zReplayNote } from '@/server/api/schemas/common';

export const ZApiKeyPublic = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: z.enum(['sandbox', 'live']),
    keyType: z.enum(['secret', 'restricted']),
    prefix: z.string().meta({ description: 'Non-secret key prefix' }),
    last4: z.string().meta({ description: 'Last 4 characters of the secret' }),
    scopes: z.array(z.string()).meta({ description: 'Permission keys; meaningful for restricted keys' }),
    lastUsedAt: zDateTime.nullable(),
    expiresAt: zDateTime.nullable(),
    revokedAt: zDateTime.nullable(),
    createdAt: zDateTime,
    createdBy: z
      .object({
        type: z.enum(['user', 'api_key', 'ops']).meta({ description: 'A user of the clinic, another API key of the clinic, or the platform operators' }),
        id: z.string().nullable().meta({ description: 'The user or key id; null when the platform minted it from its CLI or seed' }),
      })
      .nullable()
      .meta({
        description:
          'Who created the key (always set for a clinic’s keys). Deactivating that user or revoking that key does not revoke this one',
      }),
  })
  .meta({ id: 'ApiKeyPublic' });

export const ZCreateApiKey = z
  .strictObject({
    name: z.string().trim().min(1).max(120).meta({ description: 'Length 1 to 120' }),
    mode: z.enum(['sandbox', 'live']).default('sandbox'),
    keyType: z.enum(['secret', 'restricted']).default('secret'),
    scopes: z
      .array(z.string().max(100))
      .max(50)
      .default([])
      .meta({ description: 'At least one for a restricted key; ignored for a secret key' }),
    expiresInDays: z.number().positive().max(3650).nullable().default(null).meta({ description: 'Days until expiry; null means never' }),
  })
  .meta({ id: 'CreateApiKey' });

export const ZCreateApiKeyResponse = z
  .object({
    key: z.string().nullable().meta({ description: 'The plaintext key, returned exactly once; null in an Idempotency-Key replay' }),
    note: zReplayNote,
    apiKey: ZApiKeyPublic,
  })
  .meta({ id: 'CreateApiKeyResponse' });
