import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZOrder, zOrderId } from './order.types';

export const submitOrderMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.write',
  successStatus: 201,
  externalEffects: true,
  openapi: {
    method: 'POST',
    path: '/orders/{id}/submit',
    tags: ['orders'],
    summary: 'Dispatch a provider-approved order (after a reroute) to its pharmacy, once',
    errorResponses: { 403: 'No provider approved this order (order_not_approved), or the monthly order cap is reached', 404: 'No such order on this tenant', 409: 'Already dispatched, or not in a status that can be submitted' },
  },
};
export const ZSubmitOrderRequest = zOrderId;
export const ZSubmitOrderResponse = ZOrder;
