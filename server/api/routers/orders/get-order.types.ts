import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZOrderDetail, zOrderId } from './order.types';

export const getOrderMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.read',
  openapi: {
    method: 'GET',
    path: '/orders/{id}',
    tags: ['orders'],
    summary: 'An order with its patient, prescriptions, shipment and timeline (PHI; the read is written to the patient access log)',
    errorResponses: { 404: 'No such order on this tenant' },
  },
};
export const ZGetOrderRequest = zOrderId;
export const ZGetOrderResponse = ZOrderDetail;
