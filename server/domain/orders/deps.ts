import { deliveryOptions } from '@/server/domain/webhooks/options';
import { truthy, type Config } from '@/server/lib/config';
import type { SubmitDeps } from './approve';

/** Dispatch settings from the configuration; the crash hook exists for the single-dispatch crash test. */
export function submitDeps(config: Config): SubmitDeps {
  return {
    policy: deliveryOptions(config).policy,
    graceMs: config.DISPATCH_GRACE_MS,
    syncIntervalMs: config.ORDER_SYNC_INTERVAL_MS,
    inline: truthy(config.DISPATCH_INLINE),
    waitMs: 10_000,
    afterAcknowledged: truthy(config.FR_CRASH_AFTER_PHARMACY_ACK) ? () => process.exit(137) : undefined,
  };
}
