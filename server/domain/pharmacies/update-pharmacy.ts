import type { Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { resyncConnection } from '@/server/domain/orders/sync';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { updateConnection, type ConnectionInput } from './connections';

/**
 * PATCH /pharmacies/{id}. A new script (or configuration) can change orders in flight sooner than their
 * syncs were due, so those syncs are brought forward. The resync only reschedules jobs: it is not in the
 * update's transaction because the update may wait on the network (a settings URL is resolved and checked).
 */
export async function updatePharmacy(db: Db, scope: Scope, id: string, changes: Partial<Omit<ConnectionInput, 'adapter'>>, policy: UrlPolicy) {
  const updated = await updateConnection(db, scope, id, changes, policy);
  if (changes.settings !== undefined) await resyncConnection(db, scope, id);
  return updated;
}
