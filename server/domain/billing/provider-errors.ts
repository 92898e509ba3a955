import { PaymentsUnavailableError } from '@/server/integrations/payments/port';
import { AppError } from '@/server/lib/errors';

/** How long a caller should wait before trying the payment provider again after it could not be reached. */
export const PROVIDER_RETRY_AFTER_S = 30;

/**
 * The answer when the payment provider fails us (issue 34, item 6): never a 500. Unreachable, timed out, failing
 * on its side or rate-limiting us → 503 with Retry-After (a retry later may succeed); refusing our own request
 * (credentials, prices) → 502, which only the deployment's operators can fix. Nothing was written here either way.
 */
export function providerFailure(err: PaymentsUnavailableError): AppError {
  if (err.transient) {
    return new AppError(
      'service_unavailable',
      'payment_provider_unavailable',
      503,
      `The payment provider could not be reached to ${err.operation}. Nothing was charged or changed; try again in a minute.`,
      undefined,
      { 'Retry-After': String(PROVIDER_RETRY_AFTER_S) },
    );
  }
  return new AppError(
    'api_error',
    'payment_provider_error',
    502,
    `The payment provider refused this service's request to ${err.operation}. Nothing was charged or changed; the deployment's payment settings need checking by its operators.`,
  );
}

/** Runs a call to the payment provider, answering its failure as `providerFailure` does. */
export async function viaProvider<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof PaymentsUnavailableError) throw providerFailure(err);
    throw err;
  }
}
