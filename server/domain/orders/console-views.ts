import { and, asc, count, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { apiKeys, experiments, flows, orders, orderTransitions, patients, pharmacyConnections, products, protocols, users, type OrderStatus } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { hasScope } from '@/server/domain/developer/scopes';
import { recordAccess } from '@/server/domain/patients/access-log';
import { patientStateOf } from '@/server/domain/patients/patients';
import { toOrderDto } from './dto';

/*
 * What the console's order pages show beside the spec's answers: patients and people by name instead of
 * bare ids. A patient's name is PHI: it is read only for callers holding patients.read, and each patient
 * shown is written to the access log in the same transaction, as GET /v1/patients does.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type PatientRow = typeof patients.$inferSelect;

async function patientsShown(tx: Tx, principal: TenantPrincipal, ids: (string | null)[], requestId: string | null) {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (!hasScope(principal.scopes, 'patients.read') || wanted.length === 0) return new Map<string, PatientRow>();
  const rows = await tx.select().from(patients).where(scoped(tx, principal).where(patients, inArray(patients.id, wanted)));
  await recordAccess(tx, principal, rows.map((r) => r.id), 'list', requestId);
  return new Map(rows.map((r) => [r.id, r]));
}

const patientName = (p: PatientRow | undefined) => (p ? { id: p.id, firstName: p.firstName, lastName: p.lastName } : null);

/** GET /v1/orders's page, each order with its patient's name when the caller may read patients. */
export async function listOrdersNamed(db: Db, principal: TenantPrincipal, q: { status?: OrderStatus; limit: number; startingAfter?: string }, requestId: string | null) {
  return db.transaction(async (tx) => {
    const rows = await scoped(tx, principal).list(orders, { limit: q.limit, startingAfter: q.startingAfter, where: q.status ? eq(orders.status, q.status) : undefined });
    const shown = await patientsShown(tx, principal, rows.map((r) => r.patientId), requestId);
    return rows.map((r) => ({ ...toOrderDto(r), patient: r.patientId ? patientName(shown.get(r.patientId)) : null }));
  });
}

/**
 * Why each of these orders came back to the approval queue, when it did: the reason code of its latest move into
 * `pending_approval` from anything but a draft (an approval that no longer covers it, the patient's move to
 * another state: `shipping_state_changed`). Orders waiting for their first approval are not in the map.
 */
async function returnReasons(tx: Tx, principal: TenantPrincipal, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await tx
    .select({ orderId: orderTransitions.orderId, reasonCode: orderTransitions.reasonCode })
    .from(orderTransitions)
    .where(
      scoped(tx, principal).where(
        orderTransitions,
        and(inArray(orderTransitions.orderId, ids), eq(orderTransitions.toStatus, 'pending_approval'), isNotNull(orderTransitions.fromStatus), ne(orderTransitions.fromStatus, 'draft'), isNotNull(orderTransitions.reasonCode)),
      ),
    )
    .orderBy(asc(orderTransitions.id));
  return new Map(rows.map((r) => [r.orderId, r.reasonCode!]));
}

/**
 * The orders waiting for a provider, oldest first (the longest wait is the first to review), with how many
 * wait in all, each with its patient (name, date of birth, shipping state) and its lines' products.
 */
export async function approvalQueue(db: Db, principal: TenantPrincipal, limit: number, requestId: string | null) {
  return db.transaction(async (tx) => {
    const s = scoped(tx, principal);
    const pending = eq(orders.status, 'pending_approval');
    const [{ waiting }] = await tx.select({ waiting: count() }).from(orders).where(s.where(orders, pending));
    const rows = await s.list(orders, { limit, where: pending, order: 'oldest' });
    const productIds = [...new Set(rows.flatMap((r) => r.items.map((i) => i.productId)))];
    const lines = productIds.length
      ? await tx.select({ id: products.id, name: products.name, strength: products.strength }).from(products).where(s.where(products, inArray(products.id, productIds)))
      : [];
    const product = new Map(lines.map((p) => [p.id, p]));
    const shown = await patientsShown(tx, principal, rows.map((r) => r.patientId), requestId);
    const returned = await returnReasons(tx, principal, rows.map((r) => r.id));
    return {
      waiting: Number(waiting),
      orders: rows.map((r) => {
        const p = r.patientId ? shown.get(r.patientId) : undefined;
        return {
          ...toOrderDto(r),
          patient: p ? { id: p.id, firstName: p.firstName, lastName: p.lastName, dateOfBirth: p.dateOfBirth, state: patientStateOf(p) } : null,
          prescriptions: r.items.map((i) => ({ ...i, name: product.get(i.productId)?.name ?? null, strength: product.get(i.productId)?.strength ?? null })),
          returnedBecause: returned.get(r.id) ?? null,
        };
      }),
    };
  });
}

/** The clinic's named objects besides people and keys, by id prefix: none of their names is PHI. */
const NAMED_TABLES = [
  { prefix: 'flw_', kind: 'flow', table: flows },
  { prefix: 'phc_', kind: 'pharmacy', table: pharmacyConnections },
  { prefix: 'prd_', kind: 'product', table: products },
  { prefix: 'prt_', kind: 'protocol', table: protocols },
  { prefix: 'exp_', kind: 'experiment', table: experiments },
] as const;

/**
 * Names for the ids a console page mentions (approvers, timeline actors, the objects an event names), of the
 * caller's tenant only: people and keys, and the clinic's flows, pharmacies, products, protocols and
 * experiments in the caller's mode. Ids of other kinds, or not found, are left out.
 */
export async function namesOf(db: Db, principal: TenantPrincipal, ids: string[]) {
  const userIds = ids.filter((id) => id.startsWith('usr_'));
  const keyIds = ids.filter((id) => id.startsWith('key_'));
  const [people, keys, ...objects] = await Promise.all([
    userIds.length
      ? db.select({ id: users.id, name: users.name, email: users.email, role: users.role }).from(users).where(scoped(db, principal).where(users, inArray(users.id, userIds)))
      : [],
    keyIds.length ? db.select({ id: apiKeys.id, name: apiKeys.name }).from(apiKeys).where(scoped(db, principal, { bothModes: true }).where(apiKeys, inArray(apiKeys.id, keyIds))) : [],
    ...NAMED_TABLES.map(async ({ prefix, kind, table }) => {
      const wanted = ids.filter((id) => id.startsWith(prefix));
      if (wanted.length === 0) return [];
      const rows = await db.select({ id: table.id, name: table.name }).from(table).where(scoped(db, principal).where(table, inArray(table.id, wanted)));
      return rows.map((r) => ({ id: r.id, kind, name: r.name, role: null }));
    }),
  ]);
  return [
    ...people.map((u) => ({ id: u.id, kind: 'user' as const, name: u.name ?? u.email, role: u.role })),
    ...keys.map((k) => ({ id: k.id, kind: 'key' as const, name: k.name, role: null })),
    ...objects.flat(),
  ];
}

/**
 * The orders without their patients (no PHI, so no access-log entry), of the caller's tenant and mode: what
 * a page polls while orders it shows are in flight, to learn when to read them again.
 */
export async function orderStatuses(db: Db, principal: TenantPrincipal, ids: string[]) {
  if (ids.length === 0) return [];
  const rows = await db.select().from(orders).where(scoped(db, principal).where(orders, inArray(orders.id, ids)));
  return rows.map(toOrderDto);
}
