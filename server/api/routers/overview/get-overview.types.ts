import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDateTime } from '@/server/api/schemas/common';
import { ZUsage } from '../developer/get-usage.types';
import { ORDER_STATUSES } from '@/db/schema';

/**
 * The console's overview (tRPC only). A caller holding any one of these scopes gets the page; each block
 * inside is there only when its own scope is held (server/domain/overview/overview.ts).
 */
export const consoleOverviewMeta: ProcedureMeta = { scope: ['orders.read', 'intake.review', 'webhooks.manage', 'usage.read'] };
export const ZConsoleOverviewRequest = z.object({}).optional();

const n = z.number().int().min(0);
const ZStatusCounts = z.object({ ...Object.fromEntries(ORDER_STATUSES.map((s) => [s, n])), total: n } as Record<(typeof ORDER_STATUSES)[number] | 'total', typeof n>);

export const ZConsoleOverviewResponse = z.object({
  object: z.literal('overview'),
  mode: z.enum(['sandbox', 'live']),
  generatedAt: zDateTime,
  orders: z
    .object({
      today: ZStatusCounts.meta({ description: 'Orders created today (UTC) by the status each is in now' }),
      month: ZStatusCounts.meta({ description: 'Orders created this calendar month (UTC) by the status each is in now' }),
    })
    .optional(),
  approvalQueue: z
    .object({
      waiting: n,
      oldest: z.object({ orderId: z.string(), waitingSince: zDateTime, ageSeconds: n }).nullable(),
    })
    .optional(),
  intakeQueue: z
    .object({
      waiting: n.meta({ description: 'Intake submissions in this mode waiting for a provider’s review' }),
      identityToResolve: n.meta({ description: 'Of those, how many wait first for their patient match to be resolved' }),
      oldest: z.object({ submissionId: z.string(), waitingSince: zDateTime, ageSeconds: n }).nullable(),
    })
    .optional(),
  webhooks: z
    .object({
      endpoints: n,
      failing: z.array(
        z.object({
          id: z.string(),
          url: z.string(),
          status: z.enum(['enabled', 'disabled']),
          failedDeliveries: n,
          lastDelivery: z.object({ eventType: z.string(), status: z.enum(['failed', 'dead']), at: zDateTime, responseCode: z.number().int().nullable(), error: z.string().nullable() }),
        }),
      ),
    })
    .optional(),
  usage: ZUsage.optional(),
});
