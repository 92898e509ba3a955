import { and, eq } from 'drizzle-orm';
import { billingAccounts, tenants } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { AppError, errors } from '@/server/lib/errors';
import { PaymentsSignatureError, PaymentsUnavailableError, type ExternalPayments, type VerifiedWebhookEvent } from '@/server/integrations/payments/port';
import { applyPaymentEvent } from './payment-events';
import { providerFailure } from './provider-errors';

export interface StripeWebhookRequest {
  rawBody: string;
  /** The Stripe-Signature header, as sent. */
  signature: string | undefined;
}

/**
 * Whose live account an event is about: the tenant our metadata names (when it exists), else the tenant
 * whose live account holds the customer. These are the only reads not scoped by a caller: a webhook has no
 * caller, and the signature is what makes the event trustworthy.
 */
async function tenantOf(db: Db, verified: VerifiedWebhookEvent): Promise<string | null> {
  if (verified.tenantId) {
    const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, verified.tenantId)).limit(1);
    if (tenant) return tenant.id;
  }
  if (!verified.customerId) return null;
  const [account] = await db
    .select({ tenantId: billingAccounts.tenantId })
    .from(billingAccounts)
    .where(and(eq(billingAccounts.customerId, verified.customerId), eq(billingAccounts.livemode, true)))
    .limit(1);
  return account?.tenantId ?? null;
}

/**
 * `POST /v1/billing/webhooks/stripe` (DESIGN decision 29): verifies the signature over the raw body, then
 * applies the event once (per Stripe event id) to the live account it is about. Stripe serves live billing
 * only; sandbox is always simulated, so an event about a sandbox or unknown account is acknowledged and
 * changes nothing, as is an event type we do not act on. A bad signature is a 400 before anything is read.
 */
export async function receiveStripeWebhook(db: Db, payments: ExternalPayments | null, req: StripeWebhookRequest): Promise<{ received: true }> {
  if (!payments) throw new AppError('not_found', 'stripe_not_configured', 404, 'Stripe is not configured on this deployment.');
  let verified: VerifiedWebhookEvent;
  try {
    verified = await payments.verifyWebhook(req.rawBody, req.signature);
  } catch (err) {
    if (err instanceof PaymentsSignatureError) throw errors.validation(err.message, undefined, 'signature_invalid');
    // Stripe could not answer a lookup the event needs: not a 2xx, so Stripe delivers the event again later.
    if (err instanceof PaymentsUnavailableError) throw providerFailure(err);
    throw err;
  }
  if (!verified.event || !verified.livemode) return { received: true };
  const tenantId = await tenantOf(db, verified);
  if (!tenantId) return { received: true };
  await applyPaymentEvent(db, { provider: 'stripe', eventId: verified.eventId, scope: { tenantId, livemode: true }, event: verified.event });
  return { received: true };
}
