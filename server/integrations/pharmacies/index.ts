import { httpAdapter } from './http';
import { simulatedAdapter } from './simulated';
import type { AdapterDeps, PharmacyAdapter } from './types';

export type { PharmacyAdapter, DispatchOrder, PharmacyOrderState, CatalogFeedRow, CallbackUpdate } from './types';
export { PharmacyUnavailable } from './types';
export { CallbackRejected } from './callbacks';

export const ADAPTER_NAMES = ['simulated', 'http'] as const;
export type AdapterName = (typeof ADAPTER_NAMES)[number];

export function pharmacyAdapter(name: AdapterName, deps: AdapterDeps): PharmacyAdapter {
  return name === 'http' ? httpAdapter(deps) : simulatedAdapter(deps);
}
