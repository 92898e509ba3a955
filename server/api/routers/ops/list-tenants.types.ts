import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { ZTenant } from './tenant.types';

export const listTenantsMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: { method: 'GET', path: '/ops/tenants', tags: ['ops'], summary: 'Ops: list tenants, newest first' },
};
export const ZListTenantsRequest = z.object({});
export const ZListTenantsResponse = z.array(ZTenant);
