import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';

export const rerouteOrderMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'orders.write',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/orders/{id}/reroute',
    tags: ['orders'],
    summary: 'Point a rejected order at another pharmacy (the one named, or the policy’s next best); a later submit dispatches it',
    errorResponses: { 400: 'The named pharmacy cannot fill the order', 404: 'No such order, or no such pharmacy connection', 409: 'The order is not rejected' },
  },
};
export const ZRerouteOrderRequest = z.strictObject({
  id: zId('Order'),
  connectionId: zId('Pharmacy connection').optional().meta({ description: 'The pharmacy to use; omitted, the routing policy picks the next best not yet tried' }),
});
export const ZRerouteOrderResponse = z
  .object({
    rerouted: z.boolean().meta({ description: 'Whether an alternate pharmacy was found' }),
    connectionId: z.string().meta({ description: 'The pharmacy the order now points at (unchanged when not rerouted)' }),
  })
  .meta({ id: 'RerouteResult' });
