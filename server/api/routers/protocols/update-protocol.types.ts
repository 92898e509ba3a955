import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZProtocol, ZUpdateProtocol } from './protocol.types';

export const updateProtocolMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'catalog.manage',
  openapi: {
    method: 'PATCH',
    path: '/protocols/{id}',
    tags: ['catalog'],
    summary: 'Change a protocol (send only the fields to change; items, when sent, replace the whole list)',
    errorResponses: {
      400: 'Invalid or unknown field, or an item naming no product of this account and mode',
      403: 'Missing catalog.manage',
      404: 'No such protocol in this account and mode',
    },
  },
};
export const ZUpdateProtocolRequest = ZUpdateProtocol.extend({ id: zId('Protocol') });
export const ZUpdateProtocolResponse = ZProtocol;
