import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZCreateProtocol, ZProtocol } from './protocol.types';

export const createProtocolMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/protocols',
    tags: ['catalog'],
    summary: 'Create a protocol: products prescribed together, each with quantity, directions (sig) and refills',
    errorResponses: { 400: 'Invalid or unknown field, or an item naming no product of this account and mode', 403: 'Missing catalog.manage' },
  },
};
export const ZCreateProtocolRequest = ZCreateProtocol;
export const ZCreateProtocolResponse = ZProtocol;
