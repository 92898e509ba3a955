import type Stripe from 'stripe';
import type { CheckoutPlanKey, ExternalPaymentEvent, VerifiedWebhookEvent } from './port';

/** What mapping needs from the provider beyond the event itself. */
export interface StripeEventContext {
  /** The plan a configured price id sells, undefined for a price this deployment does not know. */
  planOfPrice(priceId: string): CheckoutPlanKey | undefined;
  retrieveSubscription(id: string): Promise<Stripe.Subscription>;
}

type Metadata = Record<string, string> | null | undefined;

const idOf = (v: string | { id: string } | null | undefined) => (v == null ? null : typeof v === 'string' ? v : v.id);
const date = (seconds: number) => new Date(seconds * 1000);
const isCheckoutPlan = (v: string | undefined): v is CheckoutPlanKey => v === 'starter' || v === 'growth' || v === 'scale';

/**
 * The paid period of a subscription. API versions since 2025 carry it on each subscription item (the
 * subscription's own `current_period_*` is gone); older ones on the subscription. Both are read.
 */
function subscriptionPeriod(sub: Stripe.Subscription): { periodStart: Date; periodEnd: Date } | null {
  const item = sub.items?.data?.[0] as (Stripe.SubscriptionItem & Record<string, unknown>) | undefined;
  const legacy = sub as unknown as { current_period_start?: number; current_period_end?: number };
  const start = item?.current_period_start ?? legacy.current_period_start;
  const end = item?.current_period_end ?? legacy.current_period_end;
  return typeof start === 'number' && typeof end === 'number' ? { periodStart: date(start), periodEnd: date(end) } : null;
}

const subscriptionPlan = (sub: Stripe.Subscription, ctx: StripeEventContext) => {
  const priceId = idOf(sub.items?.data?.[0]?.price);
  return priceId ? ctx.planOfPrice(priceId) : undefined;
};

/**
 * The service period an invoice pays: its subscription line's period (the invoice's own period_start/end
 * is the previous cycle's, or a single instant on a subscription's first invoice).
 */
function invoicePeriod(invoice: Stripe.Invoice): { periodStart?: Date; periodEnd?: Date } {
  const lines = invoice.lines?.data ?? [];
  const latest = lines.reduce<Stripe.InvoiceLineItem | null>((best, line) => (line.period && (!best || line.period.end > best.period.end) ? line : best), null);
  return latest ? { periodStart: date(latest.period.start), periodEnd: date(latest.period.end) } : {};
}

/** Metadata we put on the subscription (subscription_data.metadata) as the invoice snapshots it. */
const invoiceMetadata = (invoice: Stripe.Invoice): Metadata => invoice.parent?.subscription_details?.metadata ?? invoice.metadata;

async function checkoutCompleted(session: Stripe.Checkout.Session, ctx: StripeEventContext): Promise<ExternalPaymentEvent | null> {
  const subscriptionId = idOf(session.subscription);
  if (session.mode !== 'subscription' || !subscriptionId) return null;
  const sub = await ctx.retrieveSubscription(subscriptionId);
  const period = subscriptionPeriod(sub);
  const metaPlan = session.metadata?.plan;
  const plan = isCheckoutPlan(metaPlan) ? metaPlan : subscriptionPlan(sub, ctx);
  if (!period || !plan) return null;
  return { type: 'checkout.completed', plan, customerId: idOf(session.customer), subscriptionId, ...period };
}

function subscriptionUpdated(sub: Stripe.Subscription, ctx: StripeEventContext): ExternalPaymentEvent {
  const period = subscriptionPeriod(sub);
  // The portal may cancel "at period end" as cancel_at = the period's end rather than the flag.
  const cancelsAtEnd = sub.cancel_at_period_end || (sub.cancel_at != null && period != null && sub.cancel_at * 1000 === period.periodEnd.getTime());
  return { type: 'subscription.updated', plan: subscriptionPlan(sub, ctx), cancelAtPeriodEnd: cancelsAtEnd, ...(period ?? {}) };
}

interface Subject {
  metadata: Metadata;
  customer: string | { id: string } | null;
  fallbackTenantId?: string | null;
}

async function translate(event: Stripe.Event, ctx: StripeEventContext): Promise<{ subject: Subject; event: ExternalPaymentEvent | null } | null> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      // A session paid by a delayed method completes unpaid; its async_payment_succeeded event is the payment.
      const paid = event.type === 'checkout.session.async_payment_succeeded' || session.payment_status !== 'unpaid';
      const subject = { metadata: session.metadata, customer: session.customer, fallbackTenantId: session.client_reference_id };
      return { subject, event: paid ? await checkoutCompleted(session, ctx) : null };
    }
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      return {
        subject: { metadata: invoiceMetadata(invoice), customer: invoice.customer },
        event: { type: 'payment.failed', amountDueCents: Math.max(0, invoice.amount_due), attemptCount: invoice.attempt_count || undefined },
      };
    }
    // Only invoice.paid: Stripe also sends invoice.payment_succeeded for the same payment, and applying both
    // would move a recovered account on to healthy with one payment.
    case 'invoice.paid': {
      const invoice = event.data.object;
      return { subject: { metadata: invoiceMetadata(invoice), customer: invoice.customer }, event: { type: 'payment.succeeded', ...invoicePeriod(invoice) } };
    }
    case 'customer.subscription.updated': {
      const sub = event.data.object;
      // An incomplete subscription was never paid for, so its plan is not the tenant's; a canceled one arrives as deleted.
      const unpaid = sub.status === 'incomplete' || sub.status === 'incomplete_expired' || sub.status === 'canceled';
      return { subject: { metadata: sub.metadata, customer: sub.customer }, event: unpaid ? null : subscriptionUpdated(sub, ctx) };
    }
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      return { subject: { metadata: sub.metadata, customer: sub.customer }, event: { type: 'subscription.canceled' } };
    }
    default:
      return null;
  }
}

/**
 * A verified Stripe event in the port's neutral vocabulary. The tenant comes from the metadata we put on
 * the session and subscription; events without it name the customer, which the domain resolves. Stripe
 * serves live accounts only, so an event says sandbox only if its metadata does.
 */
export async function mapStripeEvent(event: Stripe.Event, ctx: StripeEventContext): Promise<VerifiedWebhookEvent> {
  const translated = await translate(event, ctx);
  const subject = translated?.subject;
  return {
    eventId: event.id,
    tenantId: subject?.metadata?.tenantId || subject?.fallbackTenantId || null,
    livemode: subject?.metadata?.livemode !== 'false',
    event: translated?.event ?? null,
    customerId: idOf(subject?.customer),
  };
}
