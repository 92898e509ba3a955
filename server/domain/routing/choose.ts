import { and, eq, sql, type SQL } from 'drizzle-orm';
import { catalogLines, pharmacyConnections, products, routingPolicies } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { policyOrDefault } from '@/server/domain/pharmacies/routing-policy';
import { qualify, rankOffers, type CandidateConnection, type IneligibleReason, type Offer } from './rank';

export interface OrderLine {
  productId: string;
  quantity: number;
}

/** What a pharmacy sends back for one of our products: the clinic's SKU and its own item code. */
export interface LineCodes {
  sku: string;
  itemCode: string;
}

interface LiveOffer {
  connectionId: string;
  productId: string;
  itemCode: string;
  priceCents: number;
  etaDays: number;
  stock: number;
  sku: string;
}

const offerColumns = {
  connectionId: catalogLines.connectionId,
  productId: catalogLines.productId,
  itemCode: catalogLines.itemCode,
  priceCents: catalogLines.priceCents,
  etaDays: catalogLines.etaDays,
  stock: catalogLines.stock,
  sku: products.sku,
};

/** The approved catalog lines at one connection of the given products (`productIds`, an array), with each product's SKU. */
const offersAtConnection = scopedStatement((own, q) =>
  q
    .select(offerColumns)
    .from(catalogLines)
    .innerJoin(products, and(eq(products.id, catalogLines.productId), eq(products.tenantId, catalogLines.tenantId)))
    .where(
      and(
        own(catalogLines),
        sql`${catalogLines.productId} = any(${sql.placeholder('productIds')}::text[])`,
        eq(catalogLines.live, true),
        eq(catalogLines.connectionId, sql.placeholder('connectionId')),
      ),
    ),
);

/**
 * How routing's tables join (on the connection's tenant and mode): a connection's approved lines of the
 * products `productIn` accepts, each line's product (for its SKU), and the scope's policy.
 */
export const routingJoins = {
  lines: (productIn: (productId: typeof catalogLines.productId) => SQL) =>
    and(
      eq(catalogLines.connectionId, pharmacyConnections.id),
      eq(catalogLines.tenantId, pharmacyConnections.tenantId),
      eq(catalogLines.livemode, pharmacyConnections.livemode),
      eq(catalogLines.live, true),
      productIn(catalogLines.productId),
    ),
  products: and(eq(products.id, catalogLines.productId), eq(products.tenantId, catalogLines.tenantId)),
  policy: and(eq(routingPolicies.tenantId, pharmacyConnections.tenantId), eq(routingPolicies.livemode, pharmacyConnections.livemode)),
};

/** What routing selects: one row per connection and matching line (a connection without one comes back once, with no offer). */
export const routingColumns = { connection: pharmacyConnections, offer: offerColumns, policy: routingPolicies };

/** A row of routing's read; `connection` is null only in a statement that left-joins the connections to something else. */
export interface RoutingRow {
  connection: typeof pharmacyConnections.$inferSelect | null;
  offer: { [K in keyof LiveOffer]: LiveOffer[K] | null } | null;
  policy: typeof routingPolicies.$inferSelect | null;
}

/** Everything routing reads, in one statement: each connection of the scope with its lines of the order's products (`productIds`). */
const routingInputs = scopedStatement((own, q) =>
  q
    .select(routingColumns)
    .from(pharmacyConnections)
    .leftJoin(catalogLines, routingJoins.lines((productId) => sql`${productId} = any(${sql.placeholder('productIds')}::text[])`))
    .leftJoin(products, routingJoins.products)
    .leftJoin(routingPolicies, routingJoins.policy)
    .where(own(pharmacyConnections)),
);

/**
 * The pharmacy a whole order goes to: one that qualifies for every line (DESIGN decision 12), ranked by
 * the policy over the order's total price and its slowest line. `exclude` holds pharmacies already tried.
 * One query; the answer keeps the connection rows and line codes, so a dispatch needs no re-read.
 */
export async function chooseConnection(q: Queryable, scope: Scope, lines: OrderLine[], state: string | null, exclude: string[] = []) {
  const rows = await scoped(q, scope).run(routingInputs, { productIds: [...new Set(lines.map((l) => l.productId))] });
  return rankRoutes(rows, lines, state, exclude);
}

/** `chooseConnection` over rows already read (routing's statement, or one that selects `routingColumns` with `routingJoins`). */
export function rankRoutes(rows: RoutingRow[], lines: OrderLine[], state: string | null, exclude: string[] = []) {
  const policy = policyOrDefault(rows[0]?.policy);
  const byId = new Map(rows.flatMap((r) => (r.connection ? [[r.connection.id, r.connection] as const] : [])));
  const connections = [...byId.values()];
  // A left-joined offer is all null when the connection has no line for these products.
  const offers = rows.flatMap((r) => (r.offer?.productId == null ? [] : [r.offer as LiveOffer]));
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
      why = qualify(conn as CandidateConnection, offer && { ...offer, catalogId: '', name: conn.name }, state, policy);
      if (why) break;
      total += offer!.priceCents * line.quantity;
      eta = Math.max(eta, offer!.etaDays);
      stock = Math.min(stock, offer!.stock);
    }
    if (why) ineligible.set(conn.id, why);
    else ranked.push({ connectionId: conn.id, name: conn.name, catalogId: '', itemCode: '', priceCents: total, etaDays: eta, stock });
  }
  const order = rankOffers(ranked, policy).map((o) => o.connectionId);
  return {
    connectionId: order[0] ?? null,
    ranked: order,
    ineligible,
    connection: (id: string) => byId.get(id) ?? null,
    /** The codes of the order's lines at a pharmacy that qualified (missing lines are absent). */
    codesAt: (id: string) => codesOf(offers.filter((o) => o.connectionId === id)),
  };
}

const codesOf = (offers: { productId: string; sku: string; itemCode: string }[]) => new Map<string, LineCodes>(offers.map((o) => [o.productId, { sku: o.sku, itemCode: o.itemCode }]));

/** The line codes of the given products at one pharmacy, from its approved catalog. */
export async function lineCodesAt(q: Queryable, scope: Scope, connectionId: string, productIds: string[]) {
  return codesOf(await scoped(q, scope).run(offersAtConnection, { productIds, connectionId }));
}
