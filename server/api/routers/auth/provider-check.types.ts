import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zUsState } from '@/server/lib/us-state-schema';

export const providerCheckMeta: OpenApiMeta<ProcedureMeta> = {
  idempotent: false,
  openapi: {
    method: 'POST',
    path: '/auth/provider-check',
    tags: ['auth'],
    summary: 'Provider only: the caller’s clinical authority for a patient in a state (why an approve button is enabled or not)',
    errorResponses: { 403: 'Not a verified, MFA-enrolled provider session' },
  },
};
export const ZProviderCheckRequest = z.strictObject({ state: zUsState.meta({ description: 'The patient’s state (any letter case)' }) });
export const ZProviderCheckResponse = z.object({
  authorized: z.boolean(),
  state: z.string(),
  npi: z.string(),
  licensedStates: z.array(z.string()),
  reason: z.string().nullable().meta({ description: 'Why not, when not authorized' }),
});
