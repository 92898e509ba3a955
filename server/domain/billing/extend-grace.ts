import type { Db } from '@/server/db/types';
import { requireTenant } from '@/server/domain/ops/tenants';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { lockAccount, moveStage, saveAccount, type BillingAccount } from './accounts';
import { healthOf, type BillingHealth } from './health';
import { dunningStageAt } from './stages';

/**
 * Support's one-time grace extension (DESIGN decision 29): every later dunning step moves back 7 days. Once
 * per account ever, whether or not a payment is past due now; outside dunning it applies to the next one.
 * A past-due account's stage and next step are recomputed at once, and a stage that moves back is recorded
 * with cause `grace_extended`.
 */
export async function extendGrace(db: Db, tenantId: string, livemode: boolean): Promise<BillingHealth> {
  await requireTenant(db, tenantId);
  return db.transaction(async (tx) => {
    const account = await lockAccount(tx, { tenantId, livemode });
    if (account.graceExtended) {
      throw errors.conflict("This account's one-time grace extension was already used.", 'grace_already_extended');
    }
    const at = now();
    const changes: Partial<BillingAccount> = { graceExtended: true, graceExtendedAt: at };
    if (!account.firstFailedAt) return healthOf(await saveAccount(tx, account, changes), at);
    const { stage, nextActionAt } = dunningStageAt(account.firstFailedAt, true, at);
    return healthOf(await moveStage(tx, account, stage, 'grace_extended', { ...changes, nextActionAt }), at);
  });
}
