import { allowLocalhostWebhooks, type Config } from '@/server/lib/config';
import { parseSchedule } from '@/server/lib/duration';
import type { UrlPolicy } from '@/server/lib/ssrf';

export interface DeliveryOptions {
  schedule: number[];
  timeoutMs: number;
  policy: UrlPolicy;
}

export function deliveryOptions(config: Config): DeliveryOptions {
  return {
    schedule: parseSchedule(config.WEBHOOK_RETRY_SCHEDULE),
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    policy: { allowLocalhost: allowLocalhostWebhooks(config) },
  };
}
