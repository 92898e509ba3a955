import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { zUsState } from '@/server/lib/us-states';
import { ZRoutingPlan } from './routing-plan.types';

export const planRoutingMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.read',
  successStatus: 201,
  idempotent: false,
  openapi: {
    method: 'POST',
    path: '/orders/routing/plan',
    tags: ['orders'],
    summary: 'Preview how lines would be routed across the connected pharmacies per the routing policy; creates nothing',
    errorResponses: {
      400: 'Bad items, state, or both patientId and patientState',
      404: 'A product, pinned connection or patient that is not in this tenant and mode (param names it)',
    },
  },
};
export const ZPlanRoutingRequest = z.strictObject({
  items: z
    .array(
      z.strictObject({
        productId: zId('Product').meta({ description: 'Catalog product id' }),
        manualConnectionId: zId('Pharmacy connection').optional().meta({ description: 'Pins the line to this pharmacy connection instead of letting policy decide' }),
      }),
    )
    .min(1)
    .max(100)
    .meta({ description: 'The lines to route' }),
  patientId: zId('Patient').optional().meta({ description: "The patient; their shipping state decides which pharmacies qualify" }),
  patientState: zUsState.optional().meta({ description: "The patient's state, when there is no patient record yet" }),
});
export const ZPlanRoutingResponse = ZRoutingPlan;
