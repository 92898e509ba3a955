import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZBillingHealth } from '@/server/api/routers/billing/billing.types';

export const extendGraceMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'POST',
    path: '/ops/tenants/{tenantId}/billing/extend-grace',
    tags: ['ops'],
    summary: "Support's one-time grace extension: every later dunning step of the tenant's live account moves back 7 days",
    description: 'Once per account, whether or not a payment is past due now (it then applies to the next dunning). `mode: sandbox` extends the sandbox rehearsal account instead.',
    errorResponses: {
      403: 'Not a platform operator',
      404: 'No such tenant',
      409: 'The extension was already used (grace_already_extended)',
    },
  },
};
export const ZExtendGraceRequest = z.strictObject({
  tenantId: zId('Tenant'),
  mode: z.enum(['live', 'sandbox']).default('live').meta({ description: 'Which account: live (default) or the sandbox rehearsal' }),
});
export const ZExtendGraceResponse = ZBillingHealth;
