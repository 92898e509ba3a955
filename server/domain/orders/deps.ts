import { deliveryOptions } from '@/server/domain/webhooks/options';
import { publicBaseUrl, truthy, type Config } from '@/server/lib/config';
import type { DispatchDeps } from './dispatch';

/** Dispatch settings from the configuration. */
export function submitDeps(config: Config): DispatchDeps {
  return {
    policy: deliveryOptions(config).policy,
    graceMs: config.DISPATCH_GRACE_MS,
    syncIntervalMs: config.ORDER_SYNC_INTERVAL_MS,
    inline: truthy(config.DISPATCH_INLINE),
    publicUrl: publicBaseUrl(config),
  };
}
