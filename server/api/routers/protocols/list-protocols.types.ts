import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { zActiveFilter } from '../products/product.types';
import { ZProtocolList } from './protocol.types';

export const listProtocolsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  openapi: {
    method: 'GET',
    path: '/protocols',
    tags: ['catalog'],
    summary: 'List protocols, newest first',
    errorResponses: { 400: 'Bad page size, cursor or active flag', 403: 'Missing catalog.manage' },
  },
};
export const ZListProtocolsRequest = z.object({
  active: zActiveFilter,
  limit: zLimit(100, 100),
  starting_after: zStartingAfter,
});
export const ZListProtocolsResponse = ZProtocolList;
