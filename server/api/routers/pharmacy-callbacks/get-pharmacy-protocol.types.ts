import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';

export const getPharmacyProtocolMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/pharmacy-protocol/openapi.json',
    tags: ['pharmacies'],
    summary: 'The pharmacy protocol: what an `http` pharmacy serves and sends, as an OpenAPI 3.1 document (no credential)',
    description:
      "For a pharmacy's engineers: the operations a pharmacy serves (GET /catalog, POST /orders, GET /orders/{idempotencyKey}, POST /orders/{idempotencyKey}/cancel), the signed status callbacks it sends, " +
      'and every body, generated from the schemas the `http` adapter reads and writes. The guide is docs/pharmacy-protocol.md; `npm run cli -- pharmacy verify` checks an implementation. Cacheable for 5 minutes.',
    protect: false,
  },
};
export const ZGetPharmacyProtocolRequest = z.object({});
export const ZGetPharmacyProtocolResponse = z
  .record(z.string(), z.unknown())
  .meta({ id: 'PharmacyProtocolDocument', description: 'An OpenAPI 3.1 document (the pharmacy protocol)' });
