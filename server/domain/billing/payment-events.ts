import { billingProviderEvents, type PaymentsProviderKind } from '@/db/schema';
import type { Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import type { ExternalPaymentEvent } from '@/server/integrations/payments/port';
import { lockAccount, moveStage, saveAccount, type BillingAccount } from './accounts';
import { dunningStageAt } from './stages';

/**
 * What a payments provider tells us, in its neutral form: the simulated provider produces these directly and
 * the Stripe webhook is translated into them (server/integrations/payments/stripe.ts).
 */
export type PaymentEvent = ExternalPaymentEvent;

export interface ProviderEvent {
  provider: PaymentsProviderKind;
  /** The provider's own event id: the same delivery twice is applied once. */
  eventId: string;
  scope: Scope;
  event: PaymentEvent;
}

/**
 * Applies one provider event to the tenant's account in one transaction, at most once per event id.
 * Returns false for a duplicate (nothing changed).
 */
export async function applyPaymentEvent(db: Db, pe: ProviderEvent): Promise<boolean> {
  return db.transaction(async (tx) => {
    const fresh = await tx
      .insert(billingProviderEvents)
      .values({ provider: pe.provider, eventId: pe.eventId, tenantId: pe.scope.tenantId, type: pe.event.type, receivedAt: now() })
      .onConflictDoNothing()
      .returning({ eventId: billingProviderEvents.eventId });
    if (fresh.length === 0) return false;
    const account = await lockAccount(tx, pe.scope);
    await applyTo(tx, { ...account, provider: account.status === 'none' ? pe.provider : account.provider }, pe.provider, pe.event);
    return true;
  });
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const CLEARED_DUNNING = { firstFailedAt: null, attemptCount: 0, amountDueCents: 0 } satisfies Partial<BillingAccount>;

async function applyTo(tx: Tx, account: BillingAccount, provider: PaymentsProviderKind, event: PaymentEvent): Promise<void> {
  const at = now();
  switch (event.type) {
    case 'checkout.completed': {
      const changes: Partial<BillingAccount> = {
        provider,
        plan: event.plan,
        status: 'active',
        periodStart: event.periodStart,
        periodEnd: event.periodEnd,
        cancelAtPeriodEnd: false,
        customerId: event.customerId ?? account.customerId,
        subscriptionId: event.subscriptionId ?? account.subscriptionId,
        nextActionAt: event.periodEnd,
        ...CLEARED_DUNNING,
      };
      // A clinic in dunning that buys again has paid: it recovers like any other successful payment.
      await moveStage(tx, account, account.firstFailedAt ? 'recovered' : account.stage, 'payment_succeeded', changes);
      return;
    }
    case 'payment.failed': {
      const firstFailedAt = account.firstFailedAt ?? at;
      const { stage, nextActionAt } = dunningStageAt(firstFailedAt, account.graceExtended, at);
      await moveStage(tx, account, stage, 'payment_failed', {
        status: 'past_due',
        firstFailedAt,
        attemptCount: event.attemptCount ?? account.attemptCount + 1,
        amountDueCents: event.amountDueCents,
        nextActionAt,
      });
      return;
    }
    case 'payment.succeeded': {
      const period = { periodStart: event.periodStart ?? account.periodStart, periodEnd: event.periodEnd ?? account.periodEnd };
      const changes: Partial<BillingAccount> = { ...period, ...CLEARED_DUNNING, status: 'active', simulatedCardDeclines: false, nextActionAt: period.periodEnd };
      // Paying the overdue invoice recovers; the next period paid after that is healthy again (decision 29).
      const to = account.firstFailedAt ? 'recovered' : account.stage === 'recovered' ? 'healthy' : account.stage;
      await moveStage(tx, account, to, account.firstFailedAt ? 'payment_succeeded' : 'period_paid', changes);
      return;
    }
    case 'subscription.updated': {
      const changes: Partial<BillingAccount> = {};
      if (event.plan !== undefined) changes.plan = event.plan;
      if (event.cancelAtPeriodEnd !== undefined) changes.cancelAtPeriodEnd = event.cancelAtPeriodEnd;
      if (event.periodStart) changes.periodStart = event.periodStart;
      if (event.periodEnd) changes.periodEnd = event.periodEnd;
      if (Object.keys(changes).length) await saveAccount(tx, account, changes);
      return;
    }
    case 'subscription.canceled': {
      // Back to free; a debt on a plan that no longer exists is written off (the provider marks it uncollectible).
      await moveStage(tx, account, 'healthy', 'subscription_canceled', {
        plan: 'free',
        status: 'canceled',
        cancelAtPeriodEnd: false,
        subscriptionId: null,
        periodStart: null,
        periodEnd: null,
        nextActionAt: null,
        ...CLEARED_DUNNING,
      });
      return;
    }
  }
}
