import Stripe from 'stripe';
import type { Config } from '@/server/lib/config';
import { now } from '@/server/lib/clock';
import { logger } from '@/server/lib/logger';
import { mapStripeEvent, type StripeEventContext } from './stripe-events';
import { PaymentsInputError, PaymentsSignatureError, PaymentsUnavailableError, type CheckoutPlanKey, type ExternalPayments, type HostedCheckoutRequest } from './port';

export type StripePaymentsConfig = Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_PRICE_STARTER' | 'STRIPE_PRICE_GROWTH' | 'STRIPE_PRICE_SCALE' | 'STRIPE_API_URL'>;

/** A Stripe request that has not answered after this long fails (the caller gets a 5xx, not a hung request). */
const STRIPE_TIMEOUT_MS = 20_000;

/**
 * How far a Stripe-Signature timestamp may lie from our clock, either way. The SDK checks only the age (a
 * timestamp in the future passes it), so the future side is checked here too (issue 34, item 8).
 */
const SIGNATURE_TOLERANCE_S = 300;

/** The signed timestamp of a Stripe-Signature header, read as the SDK reads it (the last `t=` wins); null without one. */
function signedAt(header: string): number | null {
  let t: number | null = null;
  for (const item of header.split(',')) {
    const [k, v] = item.split('=');
    if (k === 't') t = Number.parseInt(v ?? '', 10);
  }
  return t !== null && Number.isFinite(t) ? t : null;
}

/**
 * A failed Stripe call, logged for operators without secrets (the error's class, Stripe's code, HTTP status and
 * request id, the network error's code; never the key, the message or the request's parameters) and turned into
 * the port's PaymentsUnavailableError. Input errors (a coupon) are the caller's and pass through unchanged.
 */
function upstreamFailure(operation: string, err: unknown): unknown {
  if (err instanceof PaymentsInputError || !(err instanceof Stripe.errors.StripeError)) return err;
  const transient =
    err instanceof Stripe.errors.StripeConnectionError ||
    err instanceof Stripe.errors.StripeRateLimitError ||
    err instanceof Stripe.errors.StripeAPIError ||
    (err.statusCode ?? 0) >= 500;
  const detail = (err as { detail?: { code?: unknown } }).detail;
  logger.warn(
    { provider: 'stripe', operation, errorType: err.type, code: err.code, statusCode: err.statusCode, stripeRequestId: err.requestId, networkCode: typeof detail?.code === 'string' ? detail.code : undefined, transient },
    'payment provider request failed',
  );
  return new PaymentsUnavailableError(transient, operation);
}

/** Runs one Stripe operation, mapping its failure (see upstreamFailure). */
async function calling<T>(operation: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw upstreamFailure(operation, err);
  }
}

/**
 * The SDK takes its address as host, port and protocol (it always adds `/v1/...` itself), so a base URL
 * (a local fake in tests, or an egress proxy) is split into those; a path on it would be ignored.
 */
function addressOptions(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

/** The Stripe payments provider (DESIGN decision 29): Checkout in subscription mode, the customer portal, verified webhooks. */
export function createStripePayments(config: StripePaymentsConfig): ExternalPayments {
  const secretKey = config.STRIPE_SECRET_KEY;
  const webhookSecret = config.STRIPE_WEBHOOK_SECRET;
  const prices: Partial<Record<CheckoutPlanKey, string>> = {
    starter: config.STRIPE_PRICE_STARTER,
    growth: config.STRIPE_PRICE_GROWTH,
    scale: config.STRIPE_PRICE_SCALE,
  };
  // The config refuses to start with half a Stripe set-up; this only guards a caller that skipped it.
  if (!secretKey || !webhookSecret) throw new Error('Stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.');
  const stripe = new Stripe(secretKey, { ...addressOptions(config.STRIPE_API_URL), timeout: STRIPE_TIMEOUT_MS, telemetry: false, appInfo: { name: 'fulfillment-rail' } });

  const priceFor = (plan: CheckoutPlanKey) => {
    const price = prices[plan];
    if (!price) throw new Error(`No Stripe price is configured for the ${plan} plan.`);
    return price;
  };

  async function promotionCodeId(code: string): Promise<string> {
    const found = await stripe.promotionCodes.list({ code, active: true, limit: 1 });
    const promo = found.data[0];
    if (!promo) throw new PaymentsInputError('couponCode', 'couponCode is not a valid coupon (unknown, expired or used up).');
    return promo.id;
  }

  const context: StripeEventContext = {
    planOfPrice: (priceId) => (Object.keys(prices) as CheckoutPlanKey[]).find((plan) => prices[plan] === priceId),
    retrieveSubscription: (id) => stripe.subscriptions.retrieve(id),
  };

  return {
    kind: 'stripe',

    createCheckout: (req: HostedCheckoutRequest) => calling('start a checkout', () => createCheckout(req)),

    createPortal: (req) =>
      calling('open the billing portal', async () => {
        const session = await stripe.billingPortal.sessions.create({ customer: req.customerId, return_url: req.returnUrl });
        return { url: session.url };
      }),

    async verifyWebhook(rawBody, signature) {
      if (!signature) throw new PaymentsSignatureError('The Stripe-Signature header is missing.');
      // The tolerance window is measured on our clock, which tests move.
      const receivedAt = now().getTime();
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, webhookSecret, SIGNATURE_TOLERANCE_S, undefined, receivedAt);
      } catch (err) {
        if (err instanceof Stripe.errors.StripeSignatureVerificationError) throw new PaymentsSignatureError('The Stripe-Signature header does not verify.');
        throw new PaymentsSignatureError('The webhook body is not a Stripe event.');
      }
      const t = signedAt(signature);
      if (t === null || Math.abs(t * 1000 - receivedAt) > SIGNATURE_TOLERANCE_S * 1000) {
        throw new PaymentsSignatureError(`The Stripe-Signature timestamp is more than ${SIGNATURE_TOLERANCE_S / 60} minutes away from this server's clock.`);
      }
      return calling('look up the subscription of a webhook event', () => mapStripeEvent(event, context));
    },
  };

  async function createCheckout(req: HostedCheckoutRequest) {
    const price = priceFor(req.plan);
    // The coupon first: an unknown one is refused before anything is created at Stripe.
    const promotionCode = req.couponCode ? await promotionCodeId(req.couponCode) : null;
    const metadata = { tenantId: req.tenantId, livemode: String(req.livemode), plan: req.plan };
    const customerId =
      req.customerId ?? (await stripe.customers.create({ metadata: { tenantId: req.tenantId, livemode: String(req.livemode) } })).id;
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: req.tenantId,
      line_items: [{ price, quantity: 1 }],
      // On the session for checkout.session.completed, on the subscription for every invoice and subscription event after it.
      metadata,
      subscription_data: { metadata },
      ...(promotionCode ? { discounts: [{ promotion_code: promotionCode }] } : {}),
      success_url: req.successUrl,
      cancel_url: req.cancelUrl,
    });
    if (!session.url) throw new Error('Stripe returned a checkout session without a url.');
    return { url: session.url, customerId };
  }


}
