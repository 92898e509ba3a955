import type { IneligibleReason, RoutingStrategy } from '@/db/schema';
import type { RoutingPolicy } from '@/server/domain/pharmacies/routing-policy';

/** A pharmacy that can fill every line of an order, priced for the whole order. */
export interface Candidate {
  connectionId: string;
  name: string;
  /** The order's total: each line's unit price × quantity. */
  priceCents: number;
  /** The slowest line's days to delivery: the order ships as one. */
  etaDays: number;
  /** The lowest stock among the order's lines. */
  stock: number;
}

export interface CandidateConnection {
  id: string;
  name: string;
  status: 'enabled' | 'disabled';
  states: string[];
}

export type { IneligibleReason };

const WHY: Record<IneligibleReason, string> = {
  disabled: 'The connection is disabled.',
  not_in_catalog: 'Its approved catalog does not carry the product (or it has no approved catalog).',
  state_not_served: "It does not ship to the patient's state.",
  out_of_stock: 'Its catalog shows no stock of the product.',
  already_tried: 'The order was already dispatched to it.',
};
export const describeIneligible = (r: IneligibleReason) => WHY[r];

/** DESIGN decision 12: enabled, approved catalog carries the product, ships to the state (when required and known), in stock. */
export function qualify(conn: CandidateConnection, offer: { stock: number } | undefined, state: string | null, policy: RoutingPolicy): IneligibleReason | null {
  if (conn.status !== 'enabled') return 'disabled';
  if (!offer) return 'not_in_catalog';
  if (policy.requireStateLicense && state && !conn.states.includes(state)) return 'state_not_served';
  if (offer.stock <= 0) return 'out_of_stock';
  return null;
}

/** Best first, by the strategy's key and then the others, so ties break the same way every time. */
export function rankCandidates(candidates: Candidate[], policy: RoutingPolicy): Candidate[] {
  const place = (id: string) => {
    const i = policy.priority.indexOf(id);
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const keys: Record<RoutingStrategy, ((c: Candidate) => number)[]> = {
    lowest_cost: [(c) => c.priceCents, (c) => c.etaDays, (c) => place(c.connectionId)],
    fastest: [(c) => c.etaDays, (c) => c.priceCents, (c) => place(c.connectionId)],
    priority: [(c) => place(c.connectionId), (c) => c.priceCents, (c) => c.etaDays],
  };
  const order = keys[policy.strategy];
  return [...candidates].sort((a, b) => {
    for (const key of order) {
      const d = key(a) - key(b);
      if (d !== 0) return d;
    }
    return a.connectionId < b.connectionId ? -1 : a.connectionId > b.connectionId ? 1 : 0;
  });
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** Why the chosen pharmacy beat the next one, in the words an operations lead would use. */
export function explainChoice(chosen: Candidate, next: Candidate | undefined, policy: RoutingPolicy, qualifying: number): string {
  const of = `the ${qualifying} pharmacies that can fill every line`;
  if (!next) return `${chosen.name} is the only pharmacy that can fill every line.`;
  if (policy.strategy === 'priority') {
    return policy.priority.includes(chosen.connectionId)
      ? `${chosen.name} ranks highest in the policy's priority list among ${of}.`
      : `None of ${of} is in the policy's priority list; ${chosen.name} is the cheapest of them.`;
  }
  if (policy.strategy === 'fastest') {
    return chosen.etaDays < next.etaDays
      ? `${chosen.name} is the fastest of ${of} (${chosen.etaDays} days vs ${next.etaDays}).`
      : `${chosen.name} ties for fastest (${chosen.etaDays} days) among ${of} and is the cheaper (${dollars(chosen.priceCents)} vs ${dollars(next.priceCents)}).`;
  }
  return chosen.priceCents < next.priceCents
    ? `${chosen.name} is the cheapest of ${of} (${dollars(chosen.priceCents)} vs ${dollars(next.priceCents)} for the whole order).`
    : `${chosen.name} ties for cheapest (${dollars(chosen.priceCents)}) among ${of} and is the faster or preferred one.`;
}
