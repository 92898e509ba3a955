import { eq, inArray } from 'drizzle-orm';
import { products, protocols, type ProtocolItem } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { sentFields } from '@/server/lib/sent-fields';

export type ProtocolRow = typeof protocols.$inferSelect;

export interface NewProtocol {
  name: string;
  description?: string | null;
  active: boolean;
  items: ProtocolItem[];
}
export type ProtocolChanges = Partial<NewProtocol> & { id: string };

export function toProtocolDto(row: ProtocolRow) {
  return {
    id: row.id,
    object: 'protocol' as const,
    livemode: row.livemode,
    name: row.name,
    description: row.description,
    active: row.active,
    items: row.items.map(({ productId, quantity, sig, refills }) => ({ productId, quantity, sig, refills })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Every item names a product of the caller's tenant and mode. The error is the same whether the id is
 * unknown or belongs elsewhere, so it reveals nothing about other tenants or the other mode.
 */
async function checkItems(q: Queryable, scope: Scope, items: ProtocolItem[]): Promise<ProtocolItem[]> {
  const ids = [...new Set(items.map((i) => i.productId))];
  const s = scoped(q, scope);
  const found = await q.select({ id: products.id }).from(products).where(s.where(products, inArray(products.id, ids)));
  const known = new Set(found.map((r) => r.id));
  const bad = items.findIndex((i) => !known.has(i.productId));
  if (bad >= 0) {
    throw errors.validation(`items[${bad}].productId is not a product of this account in this mode.`, `items.${bad}.productId`, 'unknown_product');
  }
  return items.map(({ productId, quantity, sig, refills }) => ({ productId, quantity, sig, refills }));
}

export async function createProtocol(db: Db, scope: Scope, input: NewProtocol) {
  const items = await checkItems(db, scope, input.items);
  const at = now();
  const row = await scoped(db, scope).insert(protocols, {
    id: newId('protocol'),
    name: input.name,
    description: input.description ?? null,
    active: input.active,
    items,
    createdAt: at,
    updatedAt: at,
  });
  return toProtocolDto(row);
}

/** Newest first; `active` filters when given. */
export async function listProtocols(db: Db, scope: Scope, q: { active?: boolean; limit: number; startingAfter?: string }) {
  const rows = await scoped(db, scope).list(protocols, {
    where: q.active === undefined ? undefined : eq(protocols.active, q.active),
    limit: q.limit,
    startingAfter: q.startingAfter,
    order: 'newest',
  });
  return rows.map(toProtocolDto);
}

/** Changes only the fields sent; `items`, when sent, replaces the whole list; `null` clears `description`. */
export async function updateProtocol(db: Db, scope: Scope, input: ProtocolChanges) {
  const { id, ...changes } = input;
  const s = scoped(db, scope);
  const existing = await s.require(protocols, id, 'protocol');
  const set = sentFields(changes) as Partial<ProtocolRow>;
  if (set.items) set.items = await checkItems(db, scope, set.items);
  if (Object.keys(set).length === 0) return toProtocolDto(existing);
  const row = await s.update(protocols, id, { ...set, updatedAt: now() });
  return toProtocolDto(row ?? existing);
}
