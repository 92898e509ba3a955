import { injectDispatchHooks } from '@/server/domain/orders/deps';

/*
 * A worker process that dies (exit 137, as after kill -9) right after a pharmacy acknowledges a dispatch and
 * before the acknowledgement is recorded: the single-dispatch crash tests start it with startChildWorker's
 * `crashAfterPharmacyAck`. The hook goes in through the orders domain's test seam; the product has no switch.
 */
injectDispatchHooks({ afterAcknowledged: () => process.exit(137) });
void import('@/server/jobs/main');
