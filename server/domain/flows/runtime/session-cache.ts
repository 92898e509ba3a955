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
 * read of its own (docs/decisions/performance.md, "Public runtime: statements per request"). Only the identity is
 * trusted from here; each write re-checks in its own statement that the session is open and unexpired.
 * Two generations of at most MAX_KNOWN / 2 each: when the newer fills, the older is dropped whole. (Dropping
 * the oldest entry of one Map per insert, as before, made V8 skip every deleted slot to find it: ≈ 7 µs per
 * new session against < 1, issue 35.) A forgotten session is read from the database when next named.
 */
const MAX_KNOWN = 10_000;
let current = new Map<string, KnownSession>();
let older = new Map<string, KnownSession>();

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
  if (current.size >= MAX_KNOWN / 2 && !current.has(row.id)) {
    older = current;
    current = new Map();
  }
  current.set(row.id, { session, completed: row.status === 'completed' });
}

export const knownSession = (id: string): KnownSession | undefined => current.get(id) ?? older.get(id);
