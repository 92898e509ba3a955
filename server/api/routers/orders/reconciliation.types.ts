import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDateTime } from '@/server/api/schemas/common';

export const reconciliationMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.read',
  openapi: {
    method: 'GET',
    path: '/orders/reconciliation',
    tags: ['orders'],
    summary: 'Pharmacy callbacks that could not be applied (all 0 when healthy) and orders stuck in submitting',
  },
};
export const ZReconciliationRequest = z.object({});
export const ZReconciliationResponse = z
  .object({
    object: z.literal('reconciliation').meta({ description: 'Always `reconciliation`' }),
    livemode: z.boolean().meta({ description: 'The mode reported on' }),
    unmatchedCallbacks: z.number().int().meta({ description: 'Verified callbacks that matched no order (orphans)' }),
    unverifiedCallbacks: z.number().int().meta({ description: 'Callbacks whose signature did not verify' }),
    malformedCallbacks: z.number().int().meta({ description: 'Signed callbacks whose body did not match the schema' }),
    stuckSubmitting: z
      .array(
        z.object({
          orderId: z.string().meta({ description: 'The order' }),
          pharmacyConnectionId: z.string().nullable().meta({ description: 'Its pharmacy' }),
          since: zDateTime.meta({ description: 'When it entered submitting' }),
        }),
      )
      .meta({ description: 'Orders in submitting longer than the threshold, oldest first (at most 100)' }),
    stuckThresholdSeconds: z.number().int().meta({ description: 'The threshold (STUCK_SUBMITTING_MS)' }),
  })
  .meta({ id: 'Reconciliation' });
