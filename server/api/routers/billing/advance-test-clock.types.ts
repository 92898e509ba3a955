import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { MAX_TEST_CLOCK_DAYS } from '@/server/domain/billing/test-clock';
import { BILLING_SCOPE, ZBilling } from './billing.types';

export const advanceTestClockMeta: OpenApiMeta<ProcedureMeta> = {
  scope: BILLING_SCOPE,
  openapi: {
    method: 'POST',
    path: '/billing/test-clock/advance',
    tags: ['billing'],
    summary: "Sandbox only: move the sandbox billing clock forward and run the renewals and dunning steps that fall due (Stripe's test clocks are the model)",
    description:
      'Each renewal and dunning step on the way runs at its own instant, as the billing worker would have run it: a card that declines renewals (chosen at simulated checkout) starts dunning at the period end, and the account then goes grace → warning (day 3) → restricted (day 7) → suspended (day 14); paying in the simulated portal recovers it. Returns the sandbox billing as it then stands. Live billing has no clock (404).',
    errorResponses: {
      400: `days is not a whole number from 1 to ${MAX_TEST_CLOCK_DAYS} (param days); nothing is changed`,
      403: 'Missing billing.manage',
      404: 'Called in live mode: live billing has no test clock',
    },
  },
};
const DAYS_RULE = `must be a whole number of days from 1 to ${MAX_TEST_CLOCK_DAYS}`;
export const ZAdvanceTestClockRequest = z.strictObject({
  days: z
    .number()
    .int({ error: DAYS_RULE })
    .min(1, { error: DAYS_RULE })
    .max(MAX_TEST_CLOCK_DAYS, { error: DAYS_RULE })
    .meta({ description: `Whole days to move the sandbox billing clock forward (1–${MAX_TEST_CLOCK_DAYS})` }),
});
export const ZAdvanceTestClockResponse = ZBilling;
