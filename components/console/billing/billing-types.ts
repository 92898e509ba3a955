import type { RouterOutputs } from '@/web/console/types';

/** The wire shapes the billing page renders, inferred from the router (server/api/routers/billing/*.types.ts). */
export type Billing = RouterOutputs['billing']['get'];
export type BillingHealth = Billing['health'];
export type DunningStage = BillingHealth['stage'];
export type StageChange = Billing['stageHistory'][number];
