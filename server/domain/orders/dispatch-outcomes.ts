import { metrics } from '@/server/lib/metrics';

/** fr_dispatches_total: `recorded` (the pharmacy's answer moved the order), `nothing_recorded`, or `error` (thrown; retried). */
export async function countedDispatch<T>(path: 'inline' | 'job', send: () => Promise<T | null>): Promise<T | null> {
  try {
    const order = await send();
    metrics().dispatches.inc({ path, outcome: order ? 'recorded' : 'nothing_recorded' });
    return order;
  } catch (err) {
    metrics().dispatches.inc({ path, outcome: 'error' });
    throw err;
  }
}
