import { eq } from 'drizzle-orm';
import { billingAccounts, billingStageChanges, tenants, type DunningStage } from '@/db/schema';
import { enqueueJobs } from '@/server/db/outbox';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { announcePublicChange } from '@/server/domain/embed/public-changes';
import { newId } from '@/server/lib/ids';
import { now } from '@/server/lib/clock';
import { NOTIFIED_STAGES } from './stages';

export type BillingAccount = typeof billingAccounts.$inferSelect;

/** Job kind of the owners' dunning mail (the worker sends it after the stage change commits). */
export const BILLING_NOTICE_JOB = 'billing.notice';

/** The account a tenant has before it ever paid: free, healthy, simulated. Not stored until something changes. */
export function defaultAccount(scope: Scope, at: Date = now()): BillingAccount {
  return {
    id: newId('billingAccount'),
    tenantId: scope.tenantId,
    livemode: scope.livemode,
    provider: 'simulated',
    plan: 'free',
    status: 'none',
    periodStart: null,
    periodEnd: null,
    cancelAtPeriodEnd: false,
    customerId: null,
    subscriptionId: null,
    stage: 'healthy',
    stageChangedAt: null,
    firstFailedAt: null,
    attemptCount: 0,
    amountDueCents: 0,
    nextActionAt: null,
    graceExtended: false,
    graceExtendedAt: null,
    simulatedCardDeclines: false,
    testClockDays: 0,
    createdAt: at,
    updatedAt: at,
  };
}

/** The caller's account, or the default one when it was never written. */
export async function readAccount(q: Queryable, scope: Scope): Promise<BillingAccount> {
  const [row] = await q.select().from(billingAccounts).where(scoped(q, scope).where(billingAccounts)).limit(1);
  return row ?? defaultAccount(scope);
}

/** The caller's account row, created if missing and locked until the transaction ends: every change goes through here. */
export async function lockAccount(tx: Queryable, scope: Scope): Promise<BillingAccount> {
  const fresh = defaultAccount(scope);
  await tx.insert(billingAccounts).values(fresh).onConflictDoNothing();
  const [row] = await tx.select().from(billingAccounts).where(scoped(tx, scope).where(billingAccounts)).for('update');
  return row!;
}

/**
 * Writes `changes` to the locked account. A live account's plan is mirrored to the tenant (the monthly cap
 * of decision 13 follows it at once); the sandbox account never touches the tenant.
 */
export async function saveAccount(tx: Queryable, account: BillingAccount, changes: Partial<BillingAccount>): Promise<BillingAccount> {
  const at = now();
  const scope = { tenantId: account.tenantId, livemode: account.livemode };
  const { id: _id, tenantId: _t, livemode: _l, createdAt: _c, ...safe } = changes;
  const [row] = await tx
    .update(billingAccounts)
    .set({ ...safe, updatedAt: at })
    .where(scoped(tx, scope).where(billingAccounts, eq(billingAccounts.id, account.id)))
    .returning();
  // Public requests read the dunning facts with the embed key, from the key cache (decision 29: new sessions refused from restricted on).
  if (changes.stage !== undefined || changes.firstFailedAt !== undefined || changes.graceExtended !== undefined) await announcePublicChange(tx, account.tenantId);
  if (account.livemode && changes.plan !== undefined && changes.plan !== account.plan) {
    await tx.update(tenants).set({ plan: changes.plan }).where(eq(tenants.id, account.tenantId));
  }
  return row!;
}

/**
 * Moves the account to `to` (a no-op when it is there already): records the change with its time and cause,
 * and queues the owners' mail for warning, restricted and suspended, all in the caller's transaction.
 */
export async function moveStage(tx: Queryable, account: BillingAccount, to: DunningStage, cause: string, changes: Partial<BillingAccount> = {}): Promise<BillingAccount> {
  if (account.stage === to) return Object.keys(changes).length ? saveAccount(tx, account, changes) : account;
  const at = now();
  const scope = { tenantId: account.tenantId, livemode: account.livemode };
  await scoped(tx, scope).insert(billingStageChanges, { id: newId('billingStageChange'), fromStage: account.stage, toStage: to, cause, at });
  if (NOTIFIED_STAGES.includes(to)) {
    await enqueueJobs(tx, scope, [{ kind: BILLING_NOTICE_JOB, payload: { tenantId: scope.tenantId, livemode: scope.livemode, stage: to } }]);
  }
  return saveAccount(tx, account, { ...changes, stage: to, stageChangedAt: at });
}

/** The account's stage history, newest first. */
export async function listStageChanges(q: Queryable, scope: Scope, limit = 50) {
  return scoped(q, scope).list(billingStageChanges, { limit });
}
