import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZOrder, zOrderId } from './order.types';

export const approveOrderMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.write',
  successStatus: 201,
  externalEffects: true,
  openapi: {
    method: 'POST',
    path: '/orders/{id}/approve',
    tags: ['orders'],
    summary: "A licensed provider's approval; the order is submitted to the pharmacy at once and returned submitted",
    errorResponses: {
      403: 'Not a verified, MFA-enrolled provider session; not licensed in the patient’s state; or the plan’s monthly order cap is reached (order_cap_reached); or the account is restricted or suspended for an overdue payment (billing_restricted, billing_suspended)',
      404: 'No such order on this tenant',
      409: 'The order is not pending approval, or the patient has no shipping state',
    },
  },
};
export const ZApproveOrderRequest = zOrderId;
export const ZApproveOrderResponse = ZOrder;
