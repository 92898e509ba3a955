import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZOrder } from './order.types';

export const resolveOrderMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.write',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/orders/{id}/resolve',
    tags: ['orders'],
    summary: 'Choose the patient and confirm the flagged fields; the order is then ready for provider approval',
    errorResponses: { 400: 'Unknown patient', 404: 'No such order on this tenant', 409: 'The order is past approval' },
  },
};
export const ZResolveOrderRequest = z.strictObject({
  id: zId('Order'),
  patientId: zId('Patient').meta({ description: 'The patient the order is for' }),
  confirmAmber: z.boolean().meta({ description: 'true confirms (and clears) the flagged fields' }),
});
export const ZResolveOrderResponse = ZOrder;
