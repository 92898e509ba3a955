import { users } from '@/db/schema';
import type { Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { tenantUsers } from '@/server/domain/auth/users';
import { listApiKeys } from './api-keys';

/**
 * The key list with each creating person's name (their e-mail when they set none), for the console: a
 * developer may manage keys without `users.manage`, and still needs to see who made each key, also after
 * that person was deactivated. Only names of people who created a key of this tenant are given out.
 */
export async function listApiKeysWithCreators(q: Queryable, scope: Scope) {
  const keys = await listApiKeys(q, scope);
  const creatorIds = new Set(keys.flatMap((k) => (k.createdBy?.type === 'user' && k.createdBy.id ? [k.createdBy.id] : [])));
  const names = new Map<string, string>();
  if (creatorIds.size > 0) {
    for (const person of await tenantUsers(q, scope.tenantId).list(users, { order: 'oldest' })) {
      if (creatorIds.has(person.id)) names.set(person.id, person.name ?? person.email);
    }
  }
  return keys.map((k) => ({ ...k, createdByName: k.createdBy?.type === 'user' && k.createdBy.id ? (names.get(k.createdBy.id) ?? null) : null }));
}
