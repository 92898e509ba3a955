import { billingSessions } from '@/db/schema';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { requireTenant } from '@/server/domain/ops/tenants';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { PaymentsInputError, PaymentsUnavailableError, type ExternalPayments } from '@/server/integrations/payments/port';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newSecretId } from '@/server/lib/ids';
import { lockAccount, readAccount, saveAccount, type BillingAccount } from './accounts';
import type { CheckoutPlan } from './plans';
import { providerFailure, viaProvider } from './provider-errors';
import { findSimulatedCoupon } from './simulated-catalog';

export interface CheckoutDeps {
  /** Stripe when the deployment configures it; null = the simulated provider. */
  payments: ExternalPayments | null;
  /** The console's base URL: where the simulated pages live and where Stripe sends the person back. */
  publicUrl: string;
}

export interface CheckoutInput {
  plan: CheckoutPlan;
  couponCode?: string;
}

const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;
const PORTAL_TTL_MS = 60 * 60 * 1000;

const scopeOf = (p: TenantPrincipal): Scope => ({ tenantId: p.tenantId, livemode: p.livemode });
/** Sandbox is always a rehearsal on the simulated provider; live uses Stripe when it is configured. */
const stripeFor = (p: TenantPrincipal, deps: CheckoutDeps) => (p.livemode ? deps.payments : null);
const base = (publicUrl: string) => publicUrl.replace(/\/+$/, '');

/**
 * Starts a checkout of `plan` and returns the address to send the person to: the simulated provider's page
 * (a single-use, 24-hour session) or Stripe Checkout. Buying the plan the account already has is refused.
 */
export async function startCheckout(db: Db, principal: TenantPrincipal, input: CheckoutInput, deps: CheckoutDeps): Promise<{ url: string }> {
  const scope = scopeOf(principal);
  const account = await readAccount(db, scope);
  refuseSamePlan(account, input.plan);
  if (scope.livemode && (await requireTenant(db, scope.tenantId)).plan === 'enterprise') {
    // Self-serve would replace an uncapped plan agreed with people by a capped one.
    throw errors.conflict('This clinic is on the enterprise plan, which is managed with Fulfillment Rail directly: contact support to change it.', 'plan_managed_by_sales');
  }
  const stripe = stripeFor(principal, deps);
  if (stripe) return stripeCheckout(db, scope, account, input, stripe, deps.publicUrl);

  let coupon: ReturnType<typeof findSimulatedCoupon> = null;
  if (input.couponCode !== undefined) {
    coupon = findSimulatedCoupon(input.couponCode);
    if (!coupon) throw unknownCoupon();
  }
  const id = await insertSession(db, principal, { kind: 'checkout', plan: input.plan, couponCode: coupon?.code ?? null, percentOff: coupon?.percentOff ?? 0 }, CHECKOUT_TTL_MS);
  return { url: `${base(deps.publicUrl)}/billing/simulated/checkout/${id}` };
}

/**
 * Opens the billing portal (payment method, overdue invoice, cancellation). Like Stripe's, it needs a billing
 * customer: an account that never checked out gets 409 `no_billing_customer`.
 */
export async function openPortal(db: Db, principal: TenantPrincipal, deps: CheckoutDeps): Promise<{ url: string }> {
  const scope = scopeOf(principal);
  const account = await readAccount(db, scope);
  if (!account.customerId) {
    throw errors.conflict('This account has no billing customer yet: check out a plan first (POST /v1/billing/checkout), then manage it in the portal.', 'no_billing_customer');
  }
  const stripe = stripeFor(principal, deps);
  if (stripe) return viaProvider(() => stripe.createPortal({ customerId: account.customerId!, returnUrl: `${base(deps.publicUrl)}/billing` }));
  const id = await insertSession(db, principal, { kind: 'portal', plan: null, couponCode: null, percentOff: 0 }, PORTAL_TTL_MS);
  return { url: `${base(deps.publicUrl)}/billing/simulated/portal/${id}` };
}

function refuseSamePlan(account: BillingAccount, plan: CheckoutPlan): void {
  if (account.plan !== plan) return;
  if (account.status === 'active') {
    throw errors.conflict(`The ${plan} plan is already active on this account. To change how it is paid or to cancel it, open the billing portal.`, 'plan_already_active');
  }
  if (account.status === 'past_due') {
    throw errors.conflict(`The ${plan} plan is already on this account with a payment past due: pay it in the billing portal instead of buying the plan again.`, 'plan_already_active');
  }
}

function unknownCoupon(message = 'couponCode is not a known coupon.') {
  return errors.validation(message, 'couponCode', 'invalid_coupon');
}

async function insertSession(
  db: Db,
  principal: TenantPrincipal,
  fields: Pick<typeof billingSessions.$inferInsert, 'kind' | 'plan' | 'couponCode' | 'percentOff'>,
  ttlMs: number,
): Promise<string> {
  const at = now();
  const id = newSecretId('billingSession');
  await scoped(db, scopeOf(principal)).insert(billingSessions, {
    id,
    ...fields,
    status: 'open',
    createdBy: principal.userId ?? principal.keyId ?? 'unknown',
    createdAt: at,
    expiresAt: new Date(at.getTime() + ttlMs),
    completedAt: null,
  });
  return id;
}

async function stripeCheckout(db: Db, scope: Scope, account: BillingAccount, input: CheckoutInput, stripe: ExternalPayments, publicUrl: string) {
  let created: { url: string; customerId: string | null };
  try {
    created = await stripe.createCheckout({
      tenantId: scope.tenantId,
      livemode: scope.livemode,
      plan: input.plan,
      couponCode: input.couponCode,
      customerId: account.customerId,
      successUrl: `${base(publicUrl)}/billing?checkout=success`,
      cancelUrl: `${base(publicUrl)}/billing?checkout=cancelled`,
    });
  } catch (err) {
    if (err instanceof PaymentsInputError) {
      throw err.param === 'couponCode' ? unknownCoupon(err.message) : errors.validation(err.message, err.param);
    }
    if (err instanceof PaymentsUnavailableError) throw providerFailure(err);
    throw err;
  }
  if (created.customerId && created.customerId !== account.customerId) await rememberCustomer(db, scope, created.customerId);
  return { url: created.url };
}

/** Keeps Stripe's customer on the live account, so the next checkout and the portal reuse it. */
async function rememberCustomer(db: Db, scope: Scope, customerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const locked = await lockAccount(tx, scope);
    if (!locked.customerId) await saveAccount(tx, locked, { customerId });
  });
}
