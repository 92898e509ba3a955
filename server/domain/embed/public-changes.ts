import { sql } from 'drizzle-orm';
import type { Queryable } from '@/server/db/types';
import { processState } from '@/server/lib/process-container';

/** NOTIFY channel of changes to what public requests see of a tenant's embed keys; the payload is the tenant id. */
export const PUBLIC_CHANGES_CHANNEL = 'fr_public_changes';

/** What forgets on a change: the embed key caches of this process (serving-key-cache.ts). */
export interface ForgetsOnChange {
  invalidate(tenantId?: string): void;
}

// One registry per process, in the process container: Next.js compiles its own copy of server modules, and a
// change made through either copy must reach the caches the custom server built.
export const caches = processState('serving-key-caches', () => new Set<ForgetsOnChange>());

/**
 * Call in the transaction that changes what a public request sees of a tenant's key: the key itself (origins,
 * flow, revocation), its flow's published version or status, the tenant's dunning facts, the running
 * experiment. The NOTIFY is sent on commit, to every process; this process forgets at once as well, so the
 * next request here reads the change (one that read before the commit is corrected when the NOTIFY arrives).
 */
export async function announcePublicChange(q: Queryable, tenantId: string): Promise<void> {
  for (const cache of caches) cache.invalidate(tenantId);
  await q.execute(sql`select pg_notify(${PUBLIC_CHANGES_CHANNEL}, ${tenantId})`);
}
