import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDateTime } from '@/server/api/schemas/common';
import { ZPatientQuestionnaire, zToken } from './public-intake.types';

export const getHostedIntakeMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/public/intake/hosted/{token}',
    // No credential: the embed key (or the hosted link's token) in the path is the whole authority.
    protect: false,
    tags: ['public intake'],
    summary: 'The questionnaire a one-time hosted link opens (no credential: the token is one)',
    errorResponses: { 404: 'Unknown, expired or already used link (one answer for all three)', 429: 'Too many requests from this address' },
  },
};
export const ZGetHostedIntakeRequest = z.object({ token: zToken });
export const ZGetHostedIntakeResponse = z.object({
  questionnaire: ZPatientQuestionnaire,
  expiresAt: zDateTime,
  clinicName: z.string().meta({ description: 'The clinic asking' }),
});
