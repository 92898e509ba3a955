import { deliveryOptions } from '@/server/domain/webhooks/options';
import { truthy, type Config } from '@/server/lib/config';
import type { DispatchDeps } from './dispatch';

/**
 * A process-wide seam for the single-dispatch crash test (tests/helpers/crashing-worker.ts): it makes a worker
 * die right after a pharmacy acknowledged a dispatch. Nothing in the product sets it; no setting reaches it.
 */
const injected: Pick<DispatchDeps, 'afterAcknowledged'> = {};
export function injectDispatchHooks(hooks: Pick<DispatchDeps, 'afterAcknowledged'>) {
  Object.assign(injected, hooks);
}

/** Dispatch settings from the configuration. */
export function submitDeps(config: Config): DispatchDeps {
  return {
    policy: deliveryOptions(config).policy,
    graceMs: config.DISPATCH_GRACE_MS,
    syncIntervalMs: config.ORDER_SYNC_INTERVAL_MS,
    inline: truthy(config.DISPATCH_INLINE),
    afterAcknowledged: injected.afterAcknowledged,
  };
}
