import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZListOrdersRequest } from './list-orders.types';
import { ZOrder } from './order.types';

/** The console's order pages: the spec's orders with names beside the ids (patients' names are PHI, patients.read only). */
export const consoleOrdersMeta: ProcedureMeta = { scope: 'orders.read' };
/** Names of colleagues, keys and the clinic's objects, for the console's pages (a patient's access log names who read it). */
export const consoleNamesMeta: ProcedureMeta = { scope: ['orders.read', 'patients.read'] };

const ZPatientName = z.object({ id: z.string(), firstName: z.string(), lastName: z.string() });

export const ZConsoleListOrdersRequest = ZListOrdersRequest;
export const ZConsoleListOrdersResponse = z.array(ZOrder.extend({ patient: ZPatientName.nullable() }));

export const ZApprovalQueueRequest = z.object({ limit: z.number().int().min(1).max(100).default(50) });
export const ZApprovalQueueResponse = z.object({
  waiting: z.number().int(),
  orders: z.array(
    ZOrder.extend({
      patient: ZPatientName.extend({ dateOfBirth: z.string(), state: z.string().nullable() }).nullable(),
      prescriptions: z.array(z.object({ productId: z.string(), quantity: z.number(), sig: z.string(), refills: z.number(), name: z.string().nullable(), strength: z.string().nullable() })),
      returnedBecause: z.string().nullable().meta({ description: 'Why the order came back for approval (its reason code, e.g. shipping_state_changed); null while it waits for its first approval' }),
    }),
  ),
});

export const ZNamesRequest = z.object({ ids: z.array(zId('User, API key, flow, pharmacy, product, protocol or experiment')).max(100) });
export const ZNamesResponse = z.array(
  z.object({ id: z.string(), kind: z.enum(['user', 'key', 'flow', 'pharmacy', 'product', 'protocol', 'experiment']), name: z.string(), role: z.string().nullable() }),
);

export const ZOrderStatusesRequest = z.object({ ids: z.array(zId('Order')).max(100) });
export const ZOrderStatusesResponse = z.array(ZOrder);
