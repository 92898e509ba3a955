import { logger } from '@/server/lib/logger';
import type { Envelope } from './envelope';

/**
 * The log line of a request answered 5xx, written once by whichever transport answered it. An unexpected
 * failure (a bug, the database gone) is an error with its stack. A deliberate one (issue 49, item 4: the payment
 * provider, a pharmacy or the model unreachable, answered 503 by design) is no bug: the adapter that met the
 * outage logs it once at warn with what it knows, and the request is recorded here at info, without a stack.
 */
export function logFailedRequest(envelope: Envelope, thrown: unknown, fields: Record<string, unknown>): void {
  if (envelope.status < 500) return;
  if (envelope.deliberate) logger.info({ ...fields, status: envelope.status, code: envelope.body.error.code }, 'request answered with a service failure');
  else logger.error({ ...fields, err: thrown }, 'request failed');
}
