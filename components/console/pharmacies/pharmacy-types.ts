import type { RouterOutputs } from '@/web/console/types';

/** The pharmacy answers the console reads, inferred from the router. */
export type Pharmacy = RouterOutputs['pharmacies']['listPharmacies'][number];
export type RoutingPolicy = RouterOutputs['pharmacies']['getRoutingPolicy'];
/** A protocol check run (never null here: the page says "Never checked" itself). */
export type PharmacyVerification = NonNullable<RouterOutputs['pharmacies']['getPharmacyVerification']>;
export type RoutingStrategy = RoutingPolicy['strategy'];

/** The newest catalogs of a connection the pharmacy page shows; server prefetch and client read the same key. */
export const catalogsInput = (pharmacyConnectionId: string) => ({ pharmacyConnectionId, limit: 20 });

/** A connection's last protocol check; server prefetch and client read the same key. */
export const verificationInput = (id: string) => ({ id });
