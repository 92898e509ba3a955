/**
 * The external payments provider (DESIGN decision 29). Only Stripe is external: the simulated provider keeps its
 * state in our own database and lives in server/domain/billing/. Neutral types only here: integrations never
 * import the domain.
 */
export type CheckoutPlanKey = 'starter' | 'growth' | 'scale';

export interface HostedCheckoutRequest {
  tenantId: string;
  livemode: boolean;
  plan: CheckoutPlanKey;
  couponCode?: string;
  /** The provider's customer of this tenant, when one exists already. */
  customerId: string | null;
  successUrl: string;
  cancelUrl: string;
}

/** A payment event as the provider reported it, already verified, in the domain's neutral vocabulary. */
export type ExternalPaymentEvent =
  | { type: 'checkout.completed'; plan: CheckoutPlanKey; customerId: string | null; subscriptionId: string | null; periodStart: Date; periodEnd: Date }
  | { type: 'payment.failed'; amountDueCents: number; attemptCount?: number }
  | { type: 'payment.succeeded'; periodStart?: Date; periodEnd?: Date }
  | { type: 'subscription.updated'; plan?: CheckoutPlanKey; cancelAtPeriodEnd?: boolean; periodStart?: Date; periodEnd?: Date }
  | { type: 'subscription.canceled' };

export interface VerifiedWebhookEvent {
  /** The provider's event id (applied at most once). */
  eventId: string;
  /** Whose account it is about (from metadata or the customer), null when it is about none of ours. */
  tenantId: string | null;
  livemode: boolean;
  /** Null for event types this service does not act on (acknowledged, nothing changed). */
  event: ExternalPaymentEvent | null;
  /** For events that name only the customer: the domain resolves the tenant from it. */
  customerId: string | null;
}

export interface ExternalPayments {
  kind: 'stripe';
  /** Throws PaymentsInputError('couponCode', …) for an unknown or inactive coupon. */
  createCheckout(req: HostedCheckoutRequest): Promise<{ url: string; customerId: string | null }>;
  createPortal(req: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** Verifies the signature over the raw body; throws PaymentsSignatureError when it does not verify. */
  verifyWebhook(rawBody: string, signature: string | undefined): Promise<VerifiedWebhookEvent>;
}

/** A caller's input the provider refused (the domain turns it into a 400 naming `param`). */
export class PaymentsInputError extends Error {
  constructor(readonly param: string, message: string) {
    super(message);
    this.name = 'PaymentsInputError';
  }
}

export class PaymentsSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PaymentsSignatureError';
  }
}

/**
 * The provider could not do what was asked, through no fault of the caller: `transient` when it could not be
 * reached, timed out, failed on its side or limited our rate (a retry later may succeed), otherwise it refused
 * our own request (credentials, configuration). The message names the operation only, never a secret.
 */
export class PaymentsUnavailableError extends Error {
  constructor(readonly transient: boolean, readonly operation: string) {
    super(`The payment provider could not ${operation}.`);
    this.name = 'PaymentsUnavailableError';
  }
}
