import DataLoader from 'dataloader';
import { sql } from 'drizzle-orm';
import { users } from '@/db/schema';
import { prepared } from '@/server/db/prepared';
import type { Db } from '@/server/db/types';
import type { UserRow } from './users';

/** Exported for the test that proves concurrent reads share one statement. */
export const usersByIds = prepared((q) => q.select().from(users).where(sql`${users.id} = any(${sql.placeholder('ids')}::text[])`));

/**
 * Every session-authenticated request reads its user afresh. Under load many requests reach that read in
 * the same turn of the event loop, so the reads waiting at the end of a turn go to the database as one
 * statement: one round trip instead of one each. Nothing is cached, so each request still sees the row as
 * it stands after the request arrived (a deactivation or "log out everywhere" takes effect at once).
 */
function loaderFor(db: Db) {
  return new DataLoader<string, UserRow | undefined>(
    async (ids) => {
      const rows = await usersByIds.execute(db, { ids: [...ids] });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id));
    },
    { cache: false, maxBatchSize: 100, batchScheduleFn: (run) => setImmediate(run) },
  );
}

const loaders = new WeakMap<Db, ReturnType<typeof loaderFor>>();

export function findSessionUser(db: Db, id: string): Promise<UserRow | undefined> {
  let loader = loaders.get(db);
  if (!loader) loaders.set(db, (loader = loaderFor(db)));
  return loader.load(id);
}
