import { and, eq, sql } from 'drizzle-orm';
import { orders, orderTransitions, patients, products, type OrderPriority, type OrderSource } from '@/db/schema';
import { scoped, scopedStatement } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { now } from '@/server/lib/clock';
import { AppError, errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { toOrderDto } from './dto';
import { actorOf } from './actor';
import { timelineEntry } from './lifecycle';

export interface CreateOrderInput {
  items: { productId: string; quantity: number; sig: string; refills: number }[];
  patientId?: string;
  source: OrderSource;
  priority: OrderPriority;
  foreignOrderId?: string;
  amberFields: string[];
}

function duplicate(existingId: string) {
  return new AppError('conflict', 'duplicate_foreign_order', 409, `An order from this source already has this foreignOrderId: ${existingId}.`, 'foreignOrderId', undefined, undefined, existingId);
}

// The order's products and its patient, both of this tenant and mode, in one read.
const referencesStatement = scopedStatement((own, q) =>
  q
    .select({ kind: sql<'product' | 'patient'>`'product'`.as('kind'), id: products.id, active: products.active })
    .from(products)
    .where(and(own(products), sql`${products.id} = any(${sql.placeholder('ids')}::text[])`))
    .unionAll(
      q
        .select({ kind: sql<'product' | 'patient'>`'patient'`.as('kind'), id: patients.id, active: sql<boolean>`true`.as('active') })
        .from(patients)
        .where(and(own(patients), eq(patients.id, sql.placeholder('patientId')))),
    ),
);

/**
 * A new order: `pending_approval` when it names a patient and has no flagged fields, `draft` otherwise.
 * Products and the patient must be this tenant's and mode's; a foreignOrderId seen before from the same
 * source is a 409 naming the existing order.
 */
export async function createOrder(db: Db, principal: TenantPrincipal, input: CreateOrderInput) {
  const s = scoped(db, principal);
  const ids = [...new Set(input.items.map((i) => i.productId))];
  const found = await s.run(referencesStatement, { ids, patientId: input.patientId ?? null });
  const byId = new Map(found.filter((r) => r.kind === 'product').map((p) => [p.id, p]));
  input.items.forEach((item, i) => {
    const product = byId.get(item.productId);
    if (!product) throw errors.validation('No product of this tenant and mode has this id.', `items.${i}.productId`, 'unknown_product');
    if (!product.active) throw errors.validation('The product is inactive.', `items.${i}.productId`, 'product_inactive');
  });
  if (input.patientId && !found.some((r) => r.kind === 'patient')) {
    throw errors.validation('No patient of this tenant and mode has this id.', 'patientId', 'unknown_patient');
  }
  const amberFields = [...new Set(input.amberFields)];
  const status = input.patientId && amberFields.length === 0 ? 'pending_approval' : 'draft';
  const findExisting = async () =>
    input.foreignOrderId
      ? (await db.select({ id: orders.id }).from(orders).where(s.where(orders, and(eq(orders.source, input.source), eq(orders.foreignOrderId, input.foreignOrderId)))).limit(1))[0]
      : undefined;
  const existing = await findExisting();
  if (existing) throw duplicate(existing.id);
  try {
    // The order and its first timeline entry in one statement: atomic without a transaction around it.
    const at = now();
    const id = newId('order');
    const row = await s.insert(
      orders,
      {
        id,
        status,
        source: input.source,
        priority: input.priority,
        foreignOrderId: input.foreignOrderId ?? null,
        patientId: input.patientId ?? null,
        items: input.items,
        amberFields,
        createdAt: at,
        updatedAt: at,
      },
      [{ table: orderTransitions, rows: [timelineEntry(id, null, status, actorOf(principal), null, at)] }],
    );
    return toOrderDto(row);
  } catch (err) {
    // Two creates with one foreignOrderId at once: the unique index decides, the loser names the winner.
    const raced = (err as { code?: string; cause?: { code?: string } }).code === '23505' || (err as { cause?: { code?: string } }).cause?.code === '23505';
    const winner = raced ? await findExisting() : undefined;
    if (winner) throw duplicate(winner.id);
    throw err;
  }
}
