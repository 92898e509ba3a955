import type { z } from 'zod';
import type { ZPharmacyConnection, ZRoutingPolicy } from '@/server/api/routers/pharmacies/pharmacy.types';

/** The /v1/pharmacies answers the console reads, as the API's own schemas declare them. */
export type Pharmacy = Omit<z.output<typeof ZPharmacyConnection>, 'settings'> & { settings: Record<string, unknown> };
export type RoutingPolicy = z.output<typeof ZRoutingPolicy>;
export type RoutingStrategy = RoutingPolicy['strategy'];
