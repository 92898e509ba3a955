import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDateTime, zId } from '@/server/api/schemas/common';
import { USERS_MANAGE } from '@/server/domain/auth/roles';

export const listLicenseChangesMeta: OpenApiMeta<ProcedureMeta> = {
  scope: USERS_MANAGE,
  openapi: {
    method: 'GET',
    path: '/users/{id}/license-changes',
    tags: ['users'],
    summary: 'A provider’s licence history: every state requested, attested, removed or withdrawn, by whom and when (newest first)',
    errorResponses: { 404: 'No such user on this tenant' },
  },
};
export const ZListLicenseChangesRequest = z.object({ id: zId('User') });
export const ZLicenseChange = z
  .object({
    id: z.string(),
    state: z.string().meta({ description: 'Two-letter US state code' }),
    change: z.enum(['requested', 'attested', 'removed', 'withdrawn']).meta({
      description: 'requested: a clinic admin added it (not yet effective); attested: ops verified it (effective); removed: no longer effective; withdrawn: a request dropped before ops attested it',
    }),
    actorKind: z.enum(['user', 'key', 'ops', 'system']),
    actorId: z.string().nullable().meta({ description: 'The user or key that made the change (ops: its user or key)' }),
    at: zDateTime,
  })
  .meta({ id: 'LicenseChange' });
export const ZListLicenseChangesResponse = z.object({ object: z.literal('list'), data: z.array(ZLicenseChange) });
