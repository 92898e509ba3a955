import type { Queryable } from '@/server/db/types';
import { errors } from '@/server/lib/errors';
import { findUserById, type UserRow } from './users';

/** The session's user row, re-read so a change since the token was issued is seen. */
export async function requireUser(q: Queryable, userId: string): Promise<UserRow> {
  const user = await findUserById(q, userId);
  if (!user || user.deactivatedAt) throw errors.unauthenticated('The session is no longer valid. Sign in again.', 'invalid_session');
  return user;
}
