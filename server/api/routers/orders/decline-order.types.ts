import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZOrder } from './order.types';

/**
 * A provider declines an order waiting for approval (console only: the spec has no such operation). The
 * same authority as approving: a verified, MFA-enrolled provider's own session with orders.write.
 */
export const declineOrderMeta: ProcedureMeta = { scope: 'orders.write' };
export const ZDeclineOrderRequest = z.strictObject({
  id: zId('Order'),
  reason: z
    .string()
    .trim()
    .min(1, 'Write why you are declining the order; the clinic reads it on the order’s timeline')
    .max(1000, 'Keep the reason under 1000 characters'),
});
export const ZDeclineOrderResponse = ZOrder;
