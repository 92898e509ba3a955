/** Shapes of the /v1/pharmacies answers the console reads (see server/api/routers/pharmacies/*.types.ts). */
export interface Pharmacy {
  id: string;
  name: string;
  adapter: 'simulated' | 'http';
  settings: Record<string, unknown>;
  states: string[];
  status: 'enabled' | 'disabled';
  secretHint: string;
  callbackUrl: string;
  approvedCatalogId: string | null;
  createdAt: string;
}

export type RoutingStrategy = 'lowest_cost' | 'fastest' | 'priority';

export interface RoutingPolicy {
  strategy: RoutingStrategy;
  priority: string[];
  requireStateLicense: boolean;
  allowFallback: boolean;
  updatedAt: string | null;
}
