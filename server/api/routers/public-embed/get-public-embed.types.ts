import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';

export const getPublicEmbedMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/public/embed/{embedKey}',
    tags: ['public'],
    protect: false,
    summary: 'Public: what the widget and hosted pages need to know of their embed key (no credential; origin-checked)',
    errorResponses: { 403: 'origin_not_allowed: the page is not on an allowed origin (live keys)', 404: 'Unknown or revoked key', 429: 'Too many requests from this client for this key' },
  },
};
export const ZGetPublicEmbedRequest = z.object({ embedKey: z.string().max(100).meta({ description: 'The embed key (emb_…)' }) });
export const ZGetPublicEmbedResponse = z
  .object({
    livemode: z.boolean(),
    flowId: z.string().nullable(),
    questionnaireKeys: z.array(z.string()).meta({ description: 'Questionnaires served; empty = every approved one' }),
  })
  .meta({ id: 'PublicEmbedKey' });
