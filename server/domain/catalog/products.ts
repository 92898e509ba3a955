import { eq, inArray, or } from 'drizzle-orm';
import { products } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { AppError } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { sentFields } from '@/server/lib/sent-fields';
import { isUniqueViolation } from '@/server/db/unique-violation';
import { ndcField } from '@/server/lib/drug-codes';

export const PRODUCT_FORMS = ['tablet', 'capsule', 'injection', 'cream', 'solution', 'patch', 'device', 'kit', 'other'] as const;
export type ProductForm = (typeof PRODUCT_FORMS)[number];
export type ProductRow = typeof products.$inferSelect;

export interface NewProduct {
  name: string;
  sku: string;
  form: ProductForm;
  strength?: string | null;
  rxRequired: boolean;
  active: boolean;
  description?: string | null;
  /** Any accepted NDC form (drug-codes.ts); stored as 11 digits 5-4-2. */
  ndc?: string | null;
  rxcui?: string | null;
}
export type ProductChanges = Partial<NewProduct> & { id: string };

export function toProductDto(row: ProductRow) {
  return {
    id: row.id,
    object: 'product' as const,
    livemode: row.livemode,
    name: row.name,
    sku: row.sku,
    form: row.form as ProductForm,
    strength: row.strength,
    rxRequired: row.rxRequired,
    active: row.active,
    description: row.description,
    ndc: row.ndc,
    rxcui: row.rxcui,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const skuTaken = () => new AppError('conflict', 'sku_taken', 409, 'A product with this SKU already exists in this mode.', 'sku');

/** The friendly check first; the unique index (tenant, mode, sku) still decides a race, mapped to the same 409. */
async function writeSku<T>(q: Queryable, scope: Scope, sku: string | undefined, exceptId: string | null, write: () => Promise<T>): Promise<T> {
  if (sku !== undefined) {
    const s = scoped(q, scope);
    const [taken] = await q.select({ id: products.id }).from(products).where(s.where(products, eq(products.sku, sku))).limit(1);
    if (taken && taken.id !== exceptId) throw skuTaken();
  }
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw skuTaken();
    throw err;
  }
}

export async function createProduct(db: Db, scope: Scope, input: NewProduct) {
  const at = now();
  const row = await writeSku(db, scope, input.sku, null, () =>
    scoped(db, scope).insert(products, {
      id: newId('product'),
      name: input.name,
      sku: input.sku,
      form: input.form,
      strength: input.strength ?? null,
      rxRequired: input.rxRequired,
      active: input.active,
      description: input.description ?? null,
      ndc: ndcField(input.ndc) ?? null,
      rxcui: input.rxcui ?? null,
      createdAt: at,
      updatedAt: at,
    }),
  );
  return toProductDto(row);
}

/** Newest first; `active` filters when given. */
export async function listProducts(db: Db, scope: Scope, q: { active?: boolean; limit: number; startingAfter?: string }) {
  const rows = await scoped(db, scope).list(products, {
    where: q.active === undefined ? undefined : eq(products.active, q.active),
    limit: q.limit,
    startingAfter: q.startingAfter,
    order: 'newest',
  });
  return rows.map(toProductDto);
}

/** Changes only the fields sent; `null` clears `strength`, `description`, `ndc` or `rxcui`. */
export async function updateProduct(db: Db, scope: Scope, input: ProductChanges) {
  const { id, ...changes } = input;
  const s = scoped(db, scope);
  const existing = await s.require(products, id, 'product');
  const set = sentFields({ ...changes, ndc: ndcField(changes.ndc) }) as Partial<ProductRow>;
  if (Object.keys(set).length === 0) return toProductDto(existing);
  const sku = set.sku !== undefined && set.sku !== existing.sku ? set.sku : undefined;
  const row = await writeSku(db, scope, sku, id, () => s.update(products, id, { ...set, updatedAt: now() }));
  return toProductDto(row ?? existing);
}

/**
 * Resolves references that are either product ids or SKUs of the scope, in one query per 10,000 distinct
 * references. The map is keyed by the reference as given; an id match wins over a SKU match.
 */
export async function findProductsBySkuOrId(q: Queryable, scope: Scope, refs: string[]): Promise<Map<string, ProductRow>> {
  const distinct = [...new Set(refs)];
  const found = new Map<string, ProductRow>();
  const s = scoped(q, scope);
  for (let i = 0; i < distinct.length; i += 10_000) {
    const chunk = distinct.slice(i, i + 10_000);
    const rows = await q
      .select()
      .from(products)
      .where(s.where(products, or(inArray(products.id, chunk), inArray(products.sku, chunk))));
    const wanted = new Set(chunk);
    for (const row of rows) if (wanted.has(row.sku)) found.set(row.sku, row);
    for (const row of rows) if (wanted.has(row.id)) found.set(row.id, row);
  }
  return found;
}
