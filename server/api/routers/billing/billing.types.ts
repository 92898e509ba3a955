import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { DUNNING_STAGES, SUBSCRIPTION_STATUSES } from '@/db/schema/billing';

export const BILLING_SCOPE = 'billing.manage';

export const ZBillingHealth = z
  .object({
    stage: z.enum(DUNNING_STAGES).meta({ description: 'Dunning stage: healthy, grace (days 0–3 after the first failed payment), warning (3–7), restricted (7–14), suspended (after 14), recovered (paid; healthy again at the next paid period)' }),
    decision: z.enum(['ROUTE', 'DEGRADE', 'SOFT_BLOCK', 'BLOCK']).meta({ description: 'What the stage implies: ROUTE (everything works), DEGRADE (no AI generation, no new experiments), SOFT_BLOCK (also no new approvals and no new public flow sessions), BLOCK (also no new orders). Reads, exports and orders already approved keep working in every stage' }),
    amountDueCents: z.number().int().min(0).meta({ description: 'Amount past due in cents; 0 when healthy' }),
    nextActionAt: zDateTime.nullable().meta({ description: 'When the next dunning step happens (null when none is scheduled)' }),
    attemptCount: z.number().int().min(0).meta({ description: 'Failed payment attempts on the current invoice' }),
    graceExtended: z.boolean().meta({ description: 'Whether the one-time support grace extension was used' }),
  })
  .meta({ id: 'BillingHealth', description: "The tenant's billing health in the caller's mode" });

export const ZStageChange = z
  .object({
    from: z.enum(DUNNING_STAGES),
    to: z.enum(DUNNING_STAGES),
    cause: z.string().meta({ description: 'payment_failed, payment_succeeded, period_paid, schedule, grace_extended or subscription_canceled' }),
    at: zDateTime,
  })
  .meta({ id: 'BillingStageChange' });

export const ZBilling = z
  .object({
    object: z.literal('billing'),
    livemode: z.boolean(),
    plan: z.string().meta({ description: 'Plan tier key: free, starter, growth, scale or enterprise' }),
    priceCents: z.number().int().min(0).nullable().meta({ description: "The plan's list price per month in cents (null: quoted)" }),
    currency: z.literal('usd'),
    provider: z.enum(['simulated', 'stripe']).meta({ description: 'The payments provider this account uses (sandbox: always simulated)' }),
    status: z.enum(SUBSCRIPTION_STATUSES).meta({ description: 'Subscription status: none (never subscribed), active, past_due, canceled' }),
    period: z.object({ start: zDateTime, end: zDateTime }).nullable().meta({ description: 'The current paid period (null without a subscription)' }),
    cancelAtPeriodEnd: z.boolean().meta({ description: 'The subscription ends at the period end and the plan returns to free' }),
    health: ZBillingHealth,
    checkoutPlans: z
      .array(z.object({ plan: z.enum(['starter', 'growth', 'scale']), priceCents: z.number().int().min(0) }))
      .meta({ description: 'The plans POST /billing/checkout accepts, with their prices' }),
    stageHistory: z.array(ZStageChange).meta({ description: 'Recent dunning stage changes, newest first' }),
    testClock: z
      .object({ advancedDays: z.number().int().min(0).meta({ description: 'Days the sandbox billing clock was moved forward in total' }) })
      .nullable()
      .meta({
        description:
          'Sandbox only (null in live): the test clock of POST /billing/test-clock/advance. Dates here stay on the real clock: advancing moves the account’s own dates back by as much, so the account stands where it would be that many days from now',
      }),
  })
  .meta({ id: 'Billing', description: "The tenant's plan, subscription and billing health in the caller's mode" });

export const ZBillingUrl = z
  .object({ url: z.string().url().meta({ description: 'A payment-provider checkout or portal address to redirect to' }) })
  .meta({ id: 'BillingRedirect' });
