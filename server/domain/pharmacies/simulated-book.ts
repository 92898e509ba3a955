import { and, eq } from 'drizzle-orm';
import { simulatedPharmacyOrders } from '@/db/schema';
import { placeholders, prepared } from '@/server/db/prepared';
import type { Db } from '@/server/db/types';
import type { SimulatedBookEntry, SimulatedPharmacyBook } from '@/server/integrations/pharmacies/types';

/** A key the book has seen already inserts nothing (the unique index on connection and key). */
const insertEntry = prepared((q) =>
  q
    .insert(simulatedPharmacyOrders)
    .values(placeholders(['id', 'connectionId', 'idempotencyKey', 'payload', 'outcome', 'reasonCode', 'receivedAt']) as never)
    .onConflictDoNothing()
    .returning(),
);

/**
 * The simulated pharmacy's order book in its own table, written outside any of our transactions: to the
 * orders area it is as far away as a real pharmacy's database.
 */
export function simulatedBook(db: Db): SimulatedPharmacyBook {
  const find = async (connectionId: string, idempotencyKey: string): Promise<SimulatedBookEntry | undefined> => {
    const [row] = await db
      .select()
      .from(simulatedPharmacyOrders)
      .where(and(eq(simulatedPharmacyOrders.connectionId, connectionId), eq(simulatedPharmacyOrders.idempotencyKey, idempotencyKey)))
      .limit(1);
    return row;
  };
  return {
    find,
    async receive(entry) {
      const [created] = await insertEntry.execute(db, entry);
      return created ?? (await find(entry.connectionId, entry.idempotencyKey))!;
    },
    async markCancelled(id, at) {
      const [updated] = await db.update(simulatedPharmacyOrders).set({ cancelledAt: at }).where(eq(simulatedPharmacyOrders.id, id)).returning();
      return updated;
    },
  };
}
