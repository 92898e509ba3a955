import { and, eq, sql, type SQL } from 'drizzle-orm';
import { orders, orderTransitions, patients, products, type OrderPriority, type OrderSource } from '@/db/schema';
import { insertWhere, scoped, scopedStatement, type ScopedTable } from '@/server/db/scoped';
import { withSavepoint } from '@/server/db/savepoint';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { assertBillingAllows } from '@/server/domain/billing/enforcement';
import { notSuspended, suspensionValues } from '@/server/domain/billing/suspension';
import { now } from '@/server/lib/clock';
import { AppError, errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { toOrderDto } from './dto';
import { actorOf } from './actor';
import { timelineEntry, type OrderRow } from './lifecycle';
import { isUniqueViolation } from '@/server/db/unique-violation';

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

/** Why the order's references do not hold (thrown); nothing when they all do. */
async function checkReferences(db: Db, principal: TenantPrincipal, input: CreateOrderInput, ids: string[]) {
  const found = await scoped(db, principal).run(referencesStatement, { ids, patientId: input.patientId ?? null });
  const byId = new Map(found.filter((r) => r.kind === 'product').map((p) => [p.id, p]));
  input.items.forEach((item, i) => {
    const product = byId.get(item.productId);
    if (!product) throw errors.validation('No product of this tenant and mode has this id.', `items.${i}.productId`, 'unknown_product');
    if (!product.active) throw errors.validation('The product is inactive.', `items.${i}.productId`, 'product_inactive');
  });
  if (input.patientId && !found.some((r) => r.kind === 'patient')) {
    throw errors.validation('No patient of this tenant and mode has this id.', 'patientId', 'unknown_patient');
  }
}

// The insert's condition: every product (`ids`, `productCount` of them) active and of this tenant and mode,
// the patient, when one is named, of this tenant and mode too, and the account not suspended (decision 29).
const referencesHold = (own: (t: ScopedTable) => SQL) => sql`${notSuspended(own)} and (
  select count(*) from ${products} where ${own(products)} and ${products.id} = any(${sql.placeholder('ids')}::text[]) and ${products.active}
) = ${sql.placeholder('productCount')}::int and (
  ${sql.placeholder('patientId')}::text is null or exists (select 1 from ${patients} where ${own(patients)} and ${patients.id} = ${sql.placeholder('patientId')}::text)
)`;

/**
 * A new order: `pending_approval` when it names a patient and has no flagged fields, `draft` otherwise.
 * Products and the patient must be this tenant's and mode's; a foreignOrderId seen before from the same
 * source is a 409 naming the existing order. One statement checks the references and writes the order with
 * its first timeline entry; only when it writes nothing are the references read again, to say why.
 */
export async function createOrder(db: Db, principal: TenantPrincipal, input: CreateOrderInput) {
  const s = scoped(db, principal);
  const ids = [...new Set(input.items.map((i) => i.productId))];
  const amberFields = [...new Set(input.amberFields)];
  const status = input.patientId && amberFields.length === 0 ? 'pending_approval' : 'draft';
  const findExisting = async () =>
    input.foreignOrderId
      ? (await db.select({ id: orders.id }).from(orders).where(s.where(orders, and(eq(orders.source, input.source), eq(orders.foreignOrderId, input.foreignOrderId)))).limit(1))[0]
      : undefined;
  const at = now();
  const id = newId('order');
  const order = {
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
  };
  const [statement, values] = insertWhere('orders.create', { table: orders, rows: [order] }, referencesHold, [
    { table: orderTransitions, rows: [timelineEntry(id, null, status, actorOf(principal), null, at)] },
  ]);
  let created: OrderRow | undefined;
  try {
    const row = { ...values, ...suspensionValues(at), ids, productCount: ids.length, patientId: input.patientId ?? null };
    [created] = await withSavepoint(db, (q) => scoped(q, principal).run(statement, row));
  } catch (err) {
    // A foreignOrderId seen before (or two creates with one at once): the unique index decides, and the
    // order that holds it is named.
    const winner = isUniqueViolation(err) ? await findExisting() : undefined;
    if (winner) throw duplicate(winner.id);
    throw err;
  }
  if (created) return toOrderDto(created);
  // Nothing written: a suspended account (BLOCK refuses order creation), else a reference that does not hold.
  await assertBillingAllows(db, principal, 'order_create', at);
  await checkReferences(db, principal, input, ids);
  throw errors.conflict('A product or the patient changed while the order was being created; send it again.', 'references_changed');
}
