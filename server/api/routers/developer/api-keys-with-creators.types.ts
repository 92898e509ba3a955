import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZApiKeyPublic } from './api-key.types';

/** The API keys page's list (tRPC only): GET /v1/developer/keys plus the creating person's name. */
export const consoleApiKeysMeta: ProcedureMeta = { scope: 'keys.manage' };
export const ZConsoleListApiKeysRequest = z.object({});
export const ZConsoleApiKey = ZApiKeyPublic.extend({
  createdByName: z.string().nullable().meta({ description: 'Name (or e-mail) of the person who created the key; null when a key or the platform did' }),
});
export const ZConsoleListApiKeysResponse = z.array(ZConsoleApiKey);
