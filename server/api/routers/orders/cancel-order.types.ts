import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZOrder, zOrderId } from './order.types';

export const cancelOrderMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.write',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/orders/{id}/cancel',
    tags: ['orders'],
    summary: 'Cancel an order; a dispatched order is also cancelled at the pharmacy',
    errorResponses: { 400: 'The order is delivered or already cancelled', 404: 'No such order on this tenant' },
  },
};
export const ZCancelOrderRequest = zOrderId;
export const ZCancelOrderResponse = ZOrder;
