import { and, eq, sql, type SQL } from 'drizzle-orm';
import { catalogLines, pharmacyConnections, products, routingPolicies } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { codesOf, rankRoutes, type OrderLine, type RouteOptions } from './decide';

export { rankRoutes, routingRecord, type LineCodes, type OrderLine, type RoutingRow } from './decide';

const offerColumns = {
  connectionId: catalogLines.connectionId,
  productId: catalogLines.productId,
  catalogId: catalogLines.catalogId,
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

/** `rankRoutes` over routing's own read: one query whatever the number of lines. */
export async function chooseConnection(q: Queryable, scope: Scope, lines: OrderLine[], state: string | null, opts: RouteOptions = {}) {
  const rows = await scoped(q, scope).run(routingInputs, { productIds: [...new Set(lines.map((l) => l.productId))] });
  return rankRoutes(rows, lines, state, opts);
}

/** The line codes of the given products at one pharmacy, from its approved catalog. */
export async function lineCodesAt(q: Queryable, scope: Scope, connectionId: string, productIds: string[]) {
  return codesOf(await scoped(q, scope).run(offersAtConnection, { productIds, connectionId }));
}
