import { and, asc, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import { catalogLines, catalogs, products } from '@/db/schema';
import type { CatalogStatus } from '@/db/schema/catalog';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import type { Principal } from '@/server/domain/auth/principal';
import { requireConnection } from '@/server/domain/pharmacies/connections';
import { now } from '@/server/lib/clock';
import { errors, type ErrorDetail } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { CatalogFeedRow } from '@/server/integrations/pharmacies';
import { badRows, parseCatalogCsv, type CatalogRowInput } from './csv';
import { findProductsBySkuOrId } from './products';

type CatalogRow = typeof catalogs.$inferSelect;
const INSERT_CHUNK = 2_000;

export function toCatalogDto(row: CatalogRow) {
  return {
    id: row.id,
    object: 'catalog' as const,
    livemode: row.livemode,
    pharmacyConnectionId: row.connectionId,
    source: row.source,
    status: row.status,
    lineCount: row.lineCount,
    skippedCount: row.skippedCount,
    rejectionReason: row.rejectionReason,
    createdAt: row.createdAt.toISOString(),
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
    reviewedBy: row.reviewedBy,
  };
}

const actorOf = (p: Principal) => p.userId ?? p.keyId ?? null;

/**
 * Resolves each row's SKU or id to a product of the scope. An upload refuses unknown products and repeated
 * products as bad rows; a sync skips unknown products (the pharmacy lists what it sells, not what we sell).
 */
async function resolveRows(q: Queryable, scope: Scope, rows: CatalogRowInput[], unknown: 'refuse' | 'skip') {
  const found = await findProductsBySkuOrId(q, scope, rows.map((r) => r.ref));
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, number>();
  const lines: (CatalogRowInput & { productId: string })[] = [];
  let skipped = 0;
  for (const row of rows) {
    const product = found.get(row.ref);
    if (!product) {
      if (unknown === 'skip') skipped++;
      else problems.push({ line: row.line, param: 'sku', message: 'No product of this tenant and mode has this SKU or id.' });
      continue;
    }
    const earlier = seen.get(product.id);
    if (earlier !== undefined) {
      problems.push({ line: row.line, param: 'sku', message: `The product is already priced on line ${earlier}.` });
      continue;
    }
    seen.set(product.id, row.line);
    lines.push({ ...row, productId: product.id });
  }
  return { lines, problems, skipped };
}

/** A new pending catalog and its lines, in one transaction: it exists whole or not at all. */
export async function createPendingCatalog(
  db: Db,
  scope: Scope,
  input: { connectionId: string; source: 'upload' | 'sync'; lines: (CatalogRowInput & { productId: string })[]; skipped: number; createdBy: string | null },
) {
  return db.transaction(async (tx) => {
    const s = scoped(tx, scope);
    const catalog = await s.insert(catalogs, {
      id: newId('catalog'),
      connectionId: input.connectionId,
      source: input.source,
      status: 'pending',
      lineCount: input.lines.length,
      skippedCount: input.skipped,
      createdBy: input.createdBy,
      createdAt: now(),
    });
    const values = input.lines.map((l) => ({
      id: newId('catalogLine'),
      tenantId: scope.tenantId,
      livemode: scope.livemode,
      catalogId: catalog.id,
      connectionId: input.connectionId,
      lineNo: l.line,
      productId: l.productId,
      itemCode: l.itemCode,
      priceCents: l.priceCents,
      stock: l.stock,
      etaDays: l.etaDays,
      ndc: l.ndc ?? null,
      rxcui: l.rxcui ?? null,
    }));
    for (let i = 0; i < values.length; i += INSERT_CHUNK) await tx.insert(catalogLines).values(values.slice(i, i + INSERT_CHUNK));
    return toCatalogDto(catalog);
  });
}

export async function uploadCatalog(db: Db, principal: Principal & Scope, input: { pharmacyConnectionId: string; csv: string }) {
  const connection = await requireConnection(db, principal, input.pharmacyConnectionId);
  const parsed = parseCatalogCsv(input.csv);
  const resolved = await resolveRows(db, principal, parsed.rows, 'refuse');
  const problems = [...parsed.problems, ...resolved.problems];
  if (problems.length) throw badRows(problems);
  return createPendingCatalog(db, principal, { connectionId: connection.id, source: 'upload', lines: resolved.lines, skipped: 0, createdBy: actorOf(principal) });
}

/** Rows fetched from a pharmacy, already shape-checked by its adapter; unknown SKUs are skipped and counted. */
export async function catalogFromFeed(db: Db, principal: Principal & Scope, connectionId: string, rows: CatalogFeedRow[]) {
  const numbered = rows.map((r, i) => ({ line: i + 1, ref: r.sku, itemCode: r.itemCode, priceCents: r.priceCents, stock: r.stock, etaDays: r.etaDays, ndc: r.ndc ?? null, rxcui: r.rxcui ?? null }));
  const resolved = await resolveRows(db, principal, numbered, 'skip');
  // A pharmacy that lists a product twice: the first row wins, as the pharmacy's own order suggests.
  return createPendingCatalog(db, principal, { connectionId, source: 'sync', lines: resolved.lines, skipped: resolved.skipped + resolved.problems.length, createdBy: actorOf(principal) });
}

export async function listCatalogs(
  db: Db,
  scope: Scope,
  q: { limit: number; startingAfter?: string; pharmacyConnectionId?: string; status?: CatalogStatus },
) {
  const where = and(
    q.pharmacyConnectionId ? eq(catalogs.connectionId, q.pharmacyConnectionId) : undefined,
    q.status ? eq(catalogs.status, q.status) : undefined,
  );
  const rows = await scoped(db, scope).list(catalogs, { limit: q.limit, startingAfter: q.startingAfter, where });
  return rows.map(toCatalogDto);
}

export async function getCatalog(db: Db, scope: Scope, id: string) {
  const s = scoped(db, scope);
  const catalog = await s.require(catalogs, id, 'catalog');
  const lines = await db
    .select({ line: catalogLines.lineNo, productId: catalogLines.productId, sku: products.sku, itemCode: catalogLines.itemCode, priceCents: catalogLines.priceCents, stock: catalogLines.stock, etaDays: catalogLines.etaDays })
    .from(catalogLines)
    .innerJoin(products, eq(products.id, catalogLines.productId))
    .where(s.where(catalogLines, eq(catalogLines.catalogId, catalog.id)))
    .orderBy(asc(catalogLines.lineNo));
  return { ...toCatalogDto(catalog), lines };
}

function notPending(row: CatalogRow, verb: string) {
  return errors.conflict(`The catalog is ${row.status}; only a pending catalog can be ${verb}.`, 'catalog_not_pending');
}

/**
 * Approval makes this catalog the connection's one live price list: the previously approved catalog is
 * superseded and its lines leave routing, all in one transaction.
 */
export async function approveCatalog(db: Db, principal: Principal & Scope, id: string) {
  return db.transaction(async (tx) => {
    const s = scoped(tx, principal);
    const existing = await s.require(catalogs, id, 'catalog');
    // An empty list would silently take the pharmacy out of routing; reject it instead.
    if (existing.status === 'pending' && existing.lineCount === 0) {
      throw errors.conflict('The catalog has no lines; approving it would take the pharmacy out of routing. Reject it instead.', 'catalog_empty');
    }
    const at = now();
    const row = await s.update(catalogs, id, { status: 'approved', reviewedAt: at, reviewedBy: actorOf(principal) }, eq(catalogs.status, 'pending'));
    if (!row) throw notPending((await s.get(catalogs, id)) ?? existing, 'approved');
    await tx
      .update(catalogs)
      .set({ status: 'superseded' })
      .where(s.where(catalogs, eq(catalogs.connectionId, row.connectionId), eq(catalogs.status, 'approved'), ne(catalogs.id, id)));
    await tx
      .update(catalogLines)
      .set({ live: false })
      .where(s.where(catalogLines, eq(catalogLines.connectionId, row.connectionId), eq(catalogLines.live, true)));
    await tx.update(catalogLines).set({ live: true }).where(s.where(catalogLines, eq(catalogLines.catalogId, id)));
    await adoptDrugCodes(tx, principal, id);
    return toCatalogDto(row);
  });
}

/**
 * The drug codes a synced feed gave become the codes of products that have none (each code on its own): what
 * the clinic entered is never overwritten, and nothing changes before a person approved the catalog.
 */
async function adoptDrugCodes(tx: Queryable, scope: Scope, catalogId: string) {
  for (const code of ['ndc', 'rxcui'] as const) {
    const own = scoped(tx, scope);
    await tx
      .update(products)
      .set({ [code]: sql`(select ${catalogLines[code]} from ${catalogLines} where ${own.where(catalogLines, eq(catalogLines.catalogId, catalogId), eq(catalogLines.productId, products.id), isNotNull(catalogLines[code]))} limit 1)`, updatedAt: now() })
      .where(own.where(products, isNull(products[code]), sql`exists (select 1 from ${catalogLines} where ${own.where(catalogLines, eq(catalogLines.catalogId, catalogId), eq(catalogLines.productId, products.id), isNotNull(catalogLines[code]))})`));
  }
}

export async function rejectCatalog(db: Db, principal: Principal & Scope, id: string, reason: string) {
  const s = scoped(db, principal);
  const existing = await s.require(catalogs, id, 'catalog');
  const row = await s.update(catalogs, id, { status: 'rejected', rejectionReason: reason, reviewedAt: now(), reviewedBy: actorOf(principal) }, eq(catalogs.status, 'pending'));
  if (!row) throw notPending((await s.get(catalogs, id)) ?? existing, 'rejected');
  return toCatalogDto(row);
}
