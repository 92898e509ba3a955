import type { flowSessions } from '@/db/schema';

type SessionRow = typeof flowSessions.$inferSelect;

/** What a session is for its whole life: set at creation, never updated (status, verdict and the rest change). */
export type SessionIdentity = Pick<SessionRow, 'id' | 'tenantId' | 'livemode' | 'flowId' | 'flowVersionId' | 'embedKeyId' | 'experimentId' | 'variantKey' | 'expiresAt'>;

export interface KnownSession {
  session: SessionIdentity;
  /** Seen completed by this process; false may be stale (another process submitted it), so writes check again. */
  completed: boolean;
}

/*
 * Sessions this process created or read, by id, so that a beacon or a step save names its session without a
 * read of its own (docs/decisions.md, Issue 23: performance of the public runtime). Only the identity is
 * trusted from here; each write re-checks in its own statement that the session is open and unexpired.
 * Oldest first out when full (a Map iterates in insertion order).
 */
const MAX_KNOWN = 10_000;
const known = new Map<string, KnownSession>();

export function rememberSession(row: SessionIdentity & { status?: SessionRow['status'] }): void {
  const session: SessionIdentity = {
    id: row.id,
    tenantId: row.tenantId,
    livemode: row.livemode,
    flowId: row.flowId,
    flowVersionId: row.flowVersionId,
    embedKeyId: row.embedKeyId,
    experimentId: row.experimentId,
    variantKey: row.variantKey,
    expiresAt: row.expiresAt,
  };
  if (!known.has(row.id) && known.size >= MAX_KNOWN) known.delete(known.keys().next().value!);
  known.set(row.id, { session, completed: row.status === 'completed' });
}

export const knownSession = (id: string): KnownSession | undefined => known.get(id);

