import type { OrderRouting, pharmacyConnections, routingPolicies, RouteReason } from '@/db/schema';
import { policyOrDefault, type RoutingPolicy } from '@/server/domain/pharmacies/routing-policy';
import { now } from '@/server/lib/clock';
import { describeIneligible, explainChoice, qualify, rankCandidates, type Candidate, type CandidateConnection, type IneligibleReason } from './rank';

export interface OrderLine {
  productId: string;
  quantity: number;
}

/** An approved catalog line of one of the order's products at one connection, with the product's SKU. */
export interface LiveOffer {
  connectionId: string;
  productId: string;
  catalogId: string;
  itemCode: string;
  priceCents: number;
  etaDays: number;
  stock: number;
  sku: string;
}

/** A row of routing's read; `connection` is null only in a statement that left-joins the connections to something else. */
export interface RoutingRow {
  connection: typeof pharmacyConnections.$inferSelect | null;
  offer: { [K in keyof LiveOffer]: LiveOffer[K] | null } | null;
  policy: typeof routingPolicies.$inferSelect | null;
}

export interface RouteOptions {
  /** Pharmacies the order was already dispatched to (a reroute's "next best"). */
  exclude?: string[];
  /**
   * A pharmacy asked for by hand: pinned in a plan (`manual`: when it cannot fill the order, the policy's
   * choice only if `allowFallback`), or the one a reroute chose (`rerouted`: the policy's choice when it no
   * longer qualifies, since a reroute is a request for a working pharmacy, not a clinical pin).
   */
  preferred?: { connectionId: string; kind: 'manual' | 'rerouted' } | null;
}

export interface Ineligible {
  connectionId: string;
  name: string;
  reason: IneligibleReason;
  /** Every line it cannot fill, and why (empty for a pharmacy left out as already tried). */
  lines: { index: number; productId: string; reason: IneligibleReason }[];
}

/**
 * DESIGN decision 12 and docs/decisions/pharmacies.md ("An order is never split"): an order goes whole to one pharmacy that qualifies
 * for every line, ranked by the policy over the order's total price and its slowest line. This is the one
 * place that decides: the plan, approval, submit and reroute all call it, so a preview predicts the result.
 */
export function rankRoutes(rows: RoutingRow[], lines: OrderLine[], state: string | null, opts: RouteOptions = {}) {
  const policy = policyOrDefault(rows[0]?.policy);
  const byId = new Map(rows.flatMap((r) => (r.connection ? [[r.connection.id, r.connection] as const] : [])));
  // A left-joined offer is all null when the connection has no line for these products.
  const offers = rows.flatMap((r) => (r.offer?.productId == null ? [] : [r.offer as LiveOffer]));
  const offerOf = new Map(offers.map((o) => [`${o.connectionId}/${o.productId}`, o]));
  const candidates: Candidate[] = [];
  const ineligible: Ineligible[] = [];
  const judged: Ineligible[] = [];
  for (const conn of byId.values()) {
    if (opts.exclude?.includes(conn.id)) {
      ineligible.push({ connectionId: conn.id, name: conn.name, reason: 'already_tried', lines: [] });
      continue;
    }
    const missing: Ineligible['lines'] = [];
    const c: Candidate = { connectionId: conn.id, name: conn.name, priceCents: 0, etaDays: 0, stock: Number.MAX_SAFE_INTEGER };
    lines.forEach((line, index) => {
      const offer = offerOf.get(`${conn.id}/${line.productId}`);
      const why = qualify(conn as CandidateConnection, offer, state, policy);
      if (why) return missing.push({ index, productId: line.productId, reason: why });
      c.priceCents += offer!.priceCents * line.quantity;
      c.etaDays = Math.max(c.etaDays, offer!.etaDays);
      c.stock = Math.min(c.stock, offer!.stock);
    });
    if (missing.length === 0) candidates.push(c);
    else judged.push({ connectionId: conn.id, name: conn.name, reason: missing[0].reason, lines: missing });
  }
  ineligible.push(...judged);
  const ranked = rankCandidates(candidates, policy);
  // A line no pharmacy (of those judged) can fill on its own keeps every order that holds it from routing.
  const blocks = (index: number) => judged.every((j) => j.lines.some((l) => l.index === index));
  const unfillable = candidates.length || (byId.size && !judged.length) ? [] : lines.flatMap((line, index) => (blocks(index) ? [{ index, productId: line.productId }] : []));
  // Pharmacies that could fill some lines but not all: the ones a split would have used.
  const partial = judged.filter((j) => j.lines.length < lines.length).length;
  const { chosen, reason, explanation } = pick(ranked, ineligible, { connected: byId.size, judged: judged.length, unfillable: unfillable.length, partial }, policy, opts.preferred ?? null);
  return {
    connectionId: chosen?.connectionId ?? null,
    chosen,
    reason,
    explanation,
    alternatives: ranked.filter((c) => c !== chosen).map((c, i) => ({ rank: i + 2, ...c })),
    ineligible,
    unfillable,
    policy,
    stateChecked: policy.requireStateLicense && state !== null,
    connection: (id: string) => byId.get(id) ?? null,
    offerAt: (id: string, productId: string) => offerOf.get(`${id}/${productId}`) ?? null,
    /** The codes of the order's lines at a pharmacy that qualified (missing lines are absent). */
    codesAt: (id: string) => codesOf(offers.filter((o) => o.connectionId === id)),
  };
}

export type RouteDecision = ReturnType<typeof rankRoutes>;

const NOT_SPLIT = 'An order is never split across pharmacies';

type Counts = { connected: number; judged: number; unfillable: number; partial: number };

function pick(ranked: Candidate[], ineligible: Ineligible[], counts: Counts, policy: RoutingPolicy, preferred: RouteOptions['preferred']): { chosen: Candidate | null; reason: RouteReason; explanation: string } {
  const { unfillable, partial } = counts;
  const best = ranked[0] as Candidate | undefined;
  const byPolicy = best && explainChoice(best, ranked[1], policy, ranked.length);
  const notSplit = partial ? ` ${NOT_SPLIT}: ${partial} other pharmac${partial === 1 ? 'y' : 'ies'} cannot fill every line (see ineligible).` : '';
  if (preferred) {
    const held = ranked.find((c) => c.connectionId === preferred.connectionId);
    if (held) {
      const why = preferred.kind === 'manual' ? `${held.name} was chosen by hand and can fill every line.` : `${held.name} was chosen when the order was rerouted and can still fill every line.`;
      return { chosen: held, reason: preferred.kind, explanation: why };
    }
    const out = ineligible.find((i) => i.connectionId === preferred.connectionId);
    const name = out?.name ?? preferred.connectionId;
    const who = preferred.kind === 'manual' ? `The pinned pharmacy ${name}` : `${name}, the pharmacy the order was rerouted to,`;
    const cannot = `${who} cannot fill every line: ${out ? describeIneligible(out.reason) : 'it is not connected.'}`;
    if (best && (preferred.kind === 'rerouted' || policy.allowFallback)) {
      return { chosen: best, reason: 'fallback' as const, explanation: `${cannot} Fell back to the policy's choice: ${byPolicy}` };
    }
    if (preferred.kind === 'manual') {
      const tail = policy.allowFallback ? 'No other pharmacy can fill every line either.' : 'The routing policy does not allow fallback.';
      return { chosen: null, reason: 'manual_connection_ineligible' as const, explanation: `${cannot} ${tail}` };
    }
  }
  if (best) return { chosen: best, reason: policy.strategy, explanation: `${byPolicy}${notSplit}` };
  const none = !counts.connected
    ? 'No pharmacy is connected.'
    : !counts.judged
      ? 'Every connected pharmacy was already tried.'
      : unfillable
        ? `No connected pharmacy can fill ${unfillable === 1 ? 'one of the lines' : `${unfillable} of the lines`} (see unfillable), so no pharmacy can fill the order.`
        : `Every line can be filled somewhere, but no single pharmacy can fill every line. ${NOT_SPLIT}; each pharmacy's missing lines are listed under ineligible.`;
  return { chosen: null, reason: 'no_qualifying_pharmacy' as const, explanation: none };
}

/** What the order keeps of a decision: why its pharmacy was chosen, PHI-free (no state, no patient). */
export function routingRecord(d: RouteDecision): OrderRouting {
  return {
    decidedAt: now().toISOString(),
    reason: d.reason,
    strategy: d.policy.strategy,
    explanation: d.explanation,
    connectionId: d.connectionId,
    priceCents: d.chosen?.priceCents ?? null,
    etaDays: d.chosen?.etaDays ?? null,
    stateChecked: d.stateChecked,
    alternatives: d.alternatives.map(({ rank, connectionId, name, priceCents, etaDays }) => ({ rank, connectionId, name, priceCents, etaDays })),
    ineligible: d.ineligible,
  };
}

/** What a pharmacy sends back for one of our products: the clinic's SKU and its own item code. */
export interface LineCodes {
  sku: string;
  itemCode: string;
}

export const codesOf = (offers: { productId: string; sku: string; itemCode: string }[]) => new Map<string, LineCodes>(offers.map((o) => [o.productId, { sku: o.sku, itemCode: o.itemCode }]));
