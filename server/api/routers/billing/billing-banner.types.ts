import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { DUNNING_STAGES } from '@/db/schema/billing';

/**
 * The banner every console page shows while a payment is past due. No scope in the meta: every signed-in
 * role of the tenant reads it (a provider should know why approvals pause), so it carries the stage and what
 * it implies only, never amounts or the subscription (those are billing.manage's, on the Billing page).
 */
export const ZConsoleBillingBannerRequest = z.object({}).optional();
export const ZConsoleBillingBannerResponse = z.object({
  livemode: z.boolean().meta({ description: 'true: the live account (what the clinic pays); false: the sandbox rehearsal' }),
  stage: z.enum(DUNNING_STAGES),
  decision: z.enum(['ROUTE', 'DEGRADE', 'SOFT_BLOCK', 'BLOCK']),
  nextActionAt: zDateTime.nullable().meta({ description: 'When the stage moves next; null when healthy or once suspended' }),
});
