import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { zUsState } from '@/server/lib/us-state-schema';
import { ZRoutingPlan } from './routing-plan.types';

export const planRoutingMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.read',
  successStatus: 201,
  idempotent: false,
  openapi: {
    method: 'POST',
    path: '/orders/routing/plan',
    tags: ['orders'],
    summary: 'Preview the pharmacy an order of these lines would go to (whole, never split) per the routing policy, and why; creates nothing',
    errorResponses: {
      400: 'Bad items, state, both patientId and patientState, or pins naming different pharmacies (`conflicting_pins`)',
      404: 'A product, pinned connection or patient that is not in this tenant and mode (param names it)',
    },
  },
};
export const ZPlanRoutingRequest = z.strictObject({
  items: z
    .array(
      z.strictObject({
        productId: zId('Product').meta({ description: 'Catalog product id' }),
        quantity: z.number().int().min(1).max(1000).default(1).meta({ description: 'Units, as the order would carry them (default 1): the whole order is priced' }),
        manualConnectionId: zId('Pharmacy connection').optional().meta({ description: 'Pins the order to this pharmacy connection instead of letting policy decide (an order goes whole to one pharmacy, so every pin must name the same one)' }),
      }),
    )
    .min(1)
    .max(100)
    .meta({ description: 'The lines to route' }),
  patientId: zId('Patient').optional().meta({ description: "The patient; their shipping state decides which pharmacies qualify" }),
  patientState: zUsState.optional().meta({ description: "The patient's state, when there is no patient record yet" }),
});
export const ZPlanRoutingResponse = ZRoutingPlan;
