import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';

export const receiveCheckCallbackMeta: OpenApiMeta<ProcedureMeta> = {
  rawBody: true,
  openapi: {
    method: 'POST',
    path: '/pharmacy-protocol/check-callbacks/{runId}',
    tags: ['pharmacies'],
    summary: "A pharmacy's status callback for the test order of a protocol check run (the run's callbackUrl; no bearer)",
    description:
      'Kept as received, for the run to judge (its signature, its shape, the key it names): the checks of POST /v1/pharmacies/{id}/verify report what was wrong. ' +
      'Takes callbacks only while the run is running, at most 20.',
    protect: false,
    errorResponses: { 404: 'No such run, or it is no longer running' },
  },
};
export const ZReceiveCheckCallbackRequest = z.looseObject({ runId: z.string().min(1).max(100).meta({ description: 'The check run (pvr_…)' }) });
export const ZReceiveCheckCallbackResponse = z
  .object({ received: z.literal(true).meta({ description: 'Kept for the run to judge' }) })
  .meta({ id: 'CheckCallbackReceipt' });
