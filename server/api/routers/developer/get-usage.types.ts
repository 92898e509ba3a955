import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zDateTime } from '@/server/api/schemas/common';

export const getUsageMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'usage.read',
  openapi: {
    method: 'GET',
    path: '/developer/usage',
    tags: ['developer'],
    summary: "This billing period's routed-order volume against the plan (and any cap), plus object counts",
  },
};
export const ZGetUsageRequest = z.object({});

const count = (description: string) => z.number().int().min(0).meta({ description });

export const ZUsage = z
  .object({
    object: z.literal('usage').meta({ description: 'Always `usage`' }),
    period: z
      .object({
        start: zDateTime.meta({ description: 'Start of the billing period: the first instant of this calendar month (UTC), inclusive' }),
        end: zDateTime.meta({ description: 'End of the billing period: the first instant of next calendar month (UTC), exclusive' }),
      })
      .meta({ description: 'The current billing period (calendar month, UTC)' }),
    plan: z.string().meta({ description: 'Plan tier key: free, starter, growth, scale or enterprise' }),
    ordersRouted: count('Live orders first routed to a pharmacy this period; the billable metric. Sandbox orders are never counted'),
    orderCapPerMonth: count('Live orders the plan may route per month; present only on capped plans').optional(),
    ordersRemaining: count('Orders left under the cap this period (never below 0); present only on capped plans').optional(),
    activeApiKeys: count("Non-revoked, non-expired API keys of the caller's mode"),
    enabledWebhookEndpoints: count("Enabled webhook endpoints of the caller's mode"),
    eventsThisPeriod: count("Events appended to the caller's mode's event log this period"),
  })
  .meta({ id: 'Usage', description: 'Usage of the billing period against the plan' });
