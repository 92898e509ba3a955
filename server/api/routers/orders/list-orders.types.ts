import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { ZOrder, zOrderStatus } from './order.types';

export const listOrdersMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.read',
  openapi: { method: 'GET', path: '/orders', tags: ['orders'], summary: 'List orders, newest first', errorResponses: { 400: 'Unknown status or bad page size' } },
};
export const ZListOrdersRequest = z.object({ status: zOrderStatus.optional(), limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListOrdersResponse = z.array(ZOrder);
