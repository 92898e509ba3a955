import type { Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { loadRoutingInputs } from './plan';
import { qualify, rankOffers, type CandidateConnection, type IneligibleReason, type Offer } from './rank';

export interface OrderLine {
  productId: string;
  quantity: number;
}

/**
 * The pharmacy a whole order goes to: one that qualifies for every line (DESIGN decision 12), ranked by
 * the policy over the order's total price and its slowest line. `exclude` holds pharmacies already tried.
 */
export async function chooseConnection(q: Queryable, scope: Scope, lines: OrderLine[], state: string | null, exclude: string[] = []) {
  const { policy, connections, offers } = await loadRoutingInputs(q, scope, [...new Set(lines.map((l) => l.productId))]);
  const offerOf = new Map(offers.map((o) => [`${o.connectionId}/${o.productId}`, o]));
  const ranked: Offer[] = [];
  const ineligible = new Map<string, IneligibleReason>();
  for (const conn of connections) {
    if (exclude.includes(conn.id)) continue;
    let total = 0;
    let eta = 0;
    let stock = Number.MAX_SAFE_INTEGER;
    let why: IneligibleReason | null = null;
    for (const line of lines) {
      const offer = offerOf.get(`${conn.id}/${line.productId}`);
      why = qualify(conn as CandidateConnection, offer && { ...offer, name: conn.name }, state, policy);
      if (why) break;
      total += offer!.priceCents * line.quantity;
      eta = Math.max(eta, offer!.etaDays);
      stock = Math.min(stock, offer!.stock);
    }
    if (why) ineligible.set(conn.id, why);
    else ranked.push({ connectionId: conn.id, name: conn.name, catalogId: '', itemCode: '', priceCents: total, etaDays: eta, stock });
  }
  const order = rankOffers(ranked, policy).map((o) => o.connectionId);
  return { connectionId: order[0] ?? null, ranked: order, ineligible };
}

/** The pharmacy's own item codes for the order's lines, from its approved catalog. */
export async function itemCodesAt(q: Queryable, scope: Scope, connectionId: string, productIds: string[]) {
  const { offers } = await loadRoutingInputs(q, scope, productIds);
  return new Map(offers.filter((o) => o.connectionId === connectionId).map((o) => [o.productId, o.itemCode]));
}
