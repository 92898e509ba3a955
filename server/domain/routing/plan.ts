import { eq, inArray } from 'drizzle-orm';
import { catalogLines, pharmacyConnections, products } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { getPatientShippingState } from '@/server/domain/patients/patients';
import { loadPolicy, type RoutingPolicy } from '@/server/domain/pharmacies/routing-policy';
import { AppError } from '@/server/lib/errors';
import { describeIneligible, explainChoice, qualify, rankOffers, type CandidateConnection, type IneligibleReason, type Offer } from './rank';

export interface PlanInput {
  items: { productId: string; manualConnectionId?: string }[];
  patientId?: string;
  patientState?: string;
}

const missing = (what: string, param: string) => new AppError('not_found', 'resource_missing', 404, `No ${what} of this tenant and mode has this id.`, param);
const toChoice = (o: Offer) => ({ connectionId: o.connectionId, name: o.name, catalogId: o.catalogId, itemCode: o.itemCode, priceCents: o.priceCents, etaDays: o.etaDays, stock: o.stock });

/** Everything a plan reads, in four queries whatever the number of lines. */
async function loadRoutingInputs(db: Queryable, scope: Scope, productIds: string[]) {
  const s = scoped(db, scope);
  const [policy, connections, found, offers] = await Promise.all([
    loadPolicy(db, scope),
    db.select({ id: pharmacyConnections.id, name: pharmacyConnections.name, status: pharmacyConnections.status, states: pharmacyConnections.states }).from(pharmacyConnections).where(s.where(pharmacyConnections)),
    db.select({ id: products.id, name: products.name, active: products.active }).from(products).where(s.where(products, inArray(products.id, productIds))),
    db
      .select({ connectionId: catalogLines.connectionId, catalogId: catalogLines.catalogId, productId: catalogLines.productId, itemCode: catalogLines.itemCode, priceCents: catalogLines.priceCents, etaDays: catalogLines.etaDays, stock: catalogLines.stock })
      .from(catalogLines)
      .where(s.where(catalogLines, inArray(catalogLines.productId, productIds), eq(catalogLines.live, true))),
  ]);
  return { policy, connections, products: new Map(found.map((p) => [p.id, p])), offers };
}

/**
 * The routing preview of DESIGN decision 12: per line, the pharmacy the policy picks, why, and the ranked
 * alternatives; lines nobody can fill are listed with every pharmacy's reason. Reads only.
 */
export async function planRouting(db: Db, scope: Scope, input: PlanInput) {
  if (input.patientId && input.patientState) {
    throw new AppError('validation_error', 'invalid_request', 400, 'Send patientId or patientState, not both.', 'patientState');
  }
  const state = input.patientId ? await patientState(db, scope, input.patientId) : (input.patientState ?? null);
  const { policy, connections, products: known, offers } = await loadRoutingInputs(db, scope, [...new Set(input.items.map((i) => i.productId))]);
  const byId = new Map(connections.map((c) => [c.id, c]));
  input.items.forEach((item, i) => {
    if (!known.has(item.productId)) throw missing('product', `items.${i}.productId`);
    if (item.manualConnectionId && !byId.has(item.manualConnectionId)) throw missing('pharmacy connection', `items.${i}.manualConnectionId`);
  });

  const offerOf = new Map(offers.map((o) => [`${o.connectionId}/${o.productId}`, { ...o, name: byId.get(o.connectionId)?.name ?? '' }]));
  const lines: ReturnType<typeof routeLine>[] = [];
  const unfillable: ReturnType<typeof unfillableLine>[] = [];
  input.items.forEach((item, index) => {
    const product = known.get(item.productId)!;
    const judged = connections.map((c) => ({ conn: c, offer: offerOf.get(`${c.id}/${item.productId}`), why: null as IneligibleReason | null }));
    for (const j of judged) j.why = qualify(j.conn as CandidateConnection, j.offer, state, policy);
    const ineligible = judged.filter((j) => j.why).map((j) => ({ connectionId: j.conn.id, name: j.conn.name, reason: j.why!, explanation: describeIneligible(j.why!) }));
    const ranked = rankOffers(judged.filter((j) => !j.why).map((j) => j.offer!), policy);
    const base = { index, productId: item.productId, ineligible };

    if (!product.active) return unfillable.push(unfillableLine(base, 'product_inactive', 'The product is inactive; activate it to route it.'));
    if (item.manualConnectionId) {
      const pinned = ranked.find((o) => o.connectionId === item.manualConnectionId);
      if (pinned) return lines.push(routeLine(base, pinned, ranked.filter((o) => o !== pinned), 'manual', `Pinned to ${pinned.name} by manualConnectionId.`));
      const why = ineligible.find((x) => x.connectionId === item.manualConnectionId)!;
      const pinnedWhy = `The pinned pharmacy ${why.name} cannot fill this line: ${why.explanation}`;
      if (!policy.allowFallback || ranked.length === 0) {
        return unfillable.push(unfillableLine(base, 'manual_connection_ineligible', `${pinnedWhy} ${policy.allowFallback ? 'No other pharmacy qualifies either.' : 'The routing policy does not allow fallback.'}`));
      }
      return lines.push(routeLine(base, ranked[0], ranked.slice(1), 'fallback', `${pinnedWhy} Fell back per policy (allowFallback): ${explainChoice(ranked[0], ranked[1], policy, ranked.length)}`));
    }
    if (ranked.length === 0) return unfillable.push(unfillableLine(base, 'no_qualifying_pharmacy', 'No connected pharmacy qualifies for this product; each one’s reason is listed under ineligible.'));
    return lines.push(routeLine(base, ranked[0], ranked.slice(1), policy.strategy, explainChoice(ranked[0], ranked[1], policy, ranked.length)));
  });

  return {
    object: 'routing_plan' as const,
    livemode: scope.livemode,
    strategy: policy.strategy,
    requireStateLicense: policy.requireStateLicense,
    allowFallback: policy.allowFallback,
    patientState: state,
    stateChecked: policy.requireStateLicense && state !== null,
    lines,
    unfillable,
    totalPriceCents: lines.reduce((sum, l) => sum + l.chosen.priceCents, 0),
  };
}

async function patientState(db: Db, scope: Scope, patientId: string) {
  try {
    return await getPatientShippingState(db, scope, patientId);
  } catch (err) {
    if ((err as AppError).type === 'not_found') throw missing('patient', 'patientId');
    throw err;
  }
}

type LineBase = { index: number; productId: string; ineligible: { connectionId: string; name: string; reason: IneligibleReason; explanation: string }[] };

function routeLine(base: LineBase, chosen: Offer, rest: Offer[], reason: RoutingPolicy['strategy'] | 'manual' | 'fallback', explanation: string) {
  return { ...base, chosen: toChoice(chosen), reason, explanation, alternatives: rest.map((o, i) => ({ rank: i + 2, ...toChoice(o) })) };
}

function unfillableLine(base: LineBase, reason: 'product_inactive' | 'manual_connection_ineligible' | 'no_qualifying_pharmacy', explanation: string) {
  return { ...base, reason, explanation };
}
