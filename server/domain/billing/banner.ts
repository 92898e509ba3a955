import type { DunningStage } from '@/db/schema/billing';
import type { Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { readAccount, type BillingAccount } from './accounts';
import { healthOf } from './health';
import { isUnhealthy, type BillingDecision } from './stages';

/** What every signed-in role of a tenant may know about its billing: the stage and what it implies, nothing about money. */
export interface BillingBanner {
  /** Which account the banner is about: the live one (what the clinic pays) or the sandbox rehearsal. */
  livemode: boolean;
  stage: DunningStage;
  decision: BillingDecision;
  /** When the stage moves next (null when healthy, or once suspended). */
  nextActionAt: string | null;
}

function bannerOf(account: BillingAccount, at: Date): BillingBanner {
  // Health reads the dunning clock, as enforcement does, so a late worker never shows a stale stage. Outside
  // dunning its nextActionAt is the renewal date: not for every role, and nothing the banner needs.
  const { stage, decision, nextActionAt } = healthOf(account, at);
  return { livemode: account.livemode, stage, decision, nextActionAt: isUnhealthy(stage) ? nextActionAt : null };
}

/**
 * The console banner's state for the caller's tenant. The live account is what the clinic pays for, so a
 * live payment past due shows in both modes (the console opens in sandbox); otherwise the banner is about the
 * caller's own mode (a sandbox rehearsal of dunning shows while in sandbox). A tenant that never paid reads
 * the unsaved default account: healthy.
 */
export async function readBillingBanner(q: Queryable, scope: Scope, at: Date = now()): Promise<BillingBanner> {
  const live = bannerOf(await readAccount(q, { tenantId: scope.tenantId, livemode: true }), at);
  if (scope.livemode || isUnhealthy(live.stage)) return live;
  return bannerOf(await readAccount(q, scope), at);
}
