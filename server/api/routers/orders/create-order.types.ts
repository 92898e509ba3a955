import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZCreateOrder, ZOrder } from './order.types';

export const createOrderMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.write',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/orders',
    tags: ['orders'],
    summary: 'Create an order: pending_approval when it names a patient and has no flagged fields, draft otherwise',
    errorResponses: {
      400: 'Bad items, or a product or patient not in this tenant and mode (param names it)',
      403: 'The account is suspended for an overdue payment (billing_suspended)',
      409: 'foreignOrderId already used by this source (error.resource_id is that order)',
    },
  },
};
export const ZCreateOrderRequest = ZCreateOrder;
export const ZCreateOrderResponse = ZOrder;
