import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZPatientNotice } from '../notices/notice.types';
import { zOrderId } from './order.types';

export const listOrderNoticesMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.read',
  openapi: {
    method: 'GET',
    path: '/orders/{id}/notices',
    tags: ['orders'],
    summary: "What the order's patient was told, oldest first: each milestone per channel, its status (pending, sent, failed, skipped), when, and the text sent",
    errorResponses: { 404: 'No such order on this tenant' },
  },
};
export const ZListOrderNoticesRequest = zOrderId;
export const ZListOrderNoticesResponse = z.array(ZPatientNotice);
