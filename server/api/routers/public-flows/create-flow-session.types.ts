import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PUBLIC_FLOW_ERRORS, ZArm, ZPublicFlow, zEmbedKey } from './public-flow.types';

export const createFlowSessionMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/public/flows/{embedKey}/sessions',
    tags: ['public flows'],
    protect: false,
    summary: "Starts a patient's run: a session pinned to the flow's published version for 24 hours (emits flow.viewed)",
    description: 'The session id is the bearer secret of the run; keep it (the hosted page keeps it in localStorage per key) to resume.',
    errorResponses: {
      ...PUBLIC_FLOW_ERRORS,
      403: 'Origin not allowed for this live key (origin_not_allowed); or the program is not taking new patients right now (flow_unavailable: the one code and patient-safe message of every refusal for the clinic’s account state, which a public answer never reveals)',
      400: 'A malformed campaign or variant',
    },
  },
};
export const ZCreateFlowSessionRequest = z.strictObject({
  embedKey: zEmbedKey,
  variant: z.string().max(64).optional().meta({ description: 'Resume hint only: a client never chooses its arm' }),
  campaign: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,64}$/, 'a campaign code of letters, digits, . _ or -, at most 64')
    .optional()
    .meta({ description: 'Campaign id from the embed (cid): a short code, never personal' }),
});
export const ZCreateFlowSessionResponse = z
  .object({
    sessionId: z.string().meta({ description: 'fs_…, 128 random bits: the bearer secret of this run' }),
    versionId: z.string().meta({ description: 'The flow version the session is pinned to' }),
    expiresAt: z.string().meta({ description: 'ISO 8601; 24 hours after creation' }),
    arm: ZArm,
    variantKey: z.string().nullable(),
    definition: ZPublicFlow,
  })
  .meta({ id: 'FlowSession' });
