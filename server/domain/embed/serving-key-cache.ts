import { LRUCache } from 'lru-cache';
import type { Queryable } from '@/server/db/types';
import { caches } from './public-changes';
import { EMBED_KEY_SHAPE } from '@/server/lib/embed-addresses';
import { readServingKey, servingKeyOf, type ServingEmbedKey, type ServingKeyRecord } from './keys';

/**
 * Every public request and every hosted page resolves its embed key (with the flow's published version, the
 * tenant's dunning stage and the running experiment: one statement, keys.ts). This process cache answers it
 * from memory (DESIGN decision 37). A change to any of those facts is announced with `announcePublicChange` in
 * the writing transaction: this process's caches forget the tenant at once, and a NOTIFY on
 * PUBLIC_CHANGES_CHANNEL, delivered on commit, makes every process's cache (this one again included) forget it.
 * No TTL: an entry lives until a change names its tenant, the LISTEN connection is re-opened, or it is evicted.
 */
export { PUBLIC_CHANGES_CHANNEL } from './public-changes';
const MAX_KEYS = 10_000;

export interface ServingKeyCache {
  /** The key with its serving facts (keys.ts: `readServingKey`, shaped by `servingKeyOf`); `beforeLookup` (the per-key rate limit) runs for every well-formed id, cached or not. */
  find(q: Queryable, id: string, beforeLookup?: (id: string) => Promise<void>): Promise<ServingEmbedKey | null>;
  /** Forgets the tenant's keys; no tenant (an empty payload, a LISTEN re-opened): forgets every key. */
  invalidate(tenantId?: string): void;
  /** Counts invalidations: what was derived from a lookup started before a change must not be kept after it. */
  readonly generation: number;
  /** Called on every invalidation (the hosted pages' render cache drops the tenant's pages). */
  onInvalidate(listener: (tenantId: string | undefined) => void): void;
  close(): void;
}

interface Entry {
  record: ServingKeyRecord;
  /** The key as requests see it, when that cannot change with time (no payment past due): shaped once. */
  shaped: ServingEmbedKey | null;
}

const entryOf = (record: ServingKeyRecord): Entry => ({ record, shaped: record.billing.firstFailedAt ? null : Object.freeze(servingKeyOf(record)) });

export function createServingKeyCache(): ServingKeyCache {
  const entries = new LRUCache<string, Entry>({ max: MAX_KEYS });
  // Concurrent misses of one key share one query (a cold page under a campaign's burst).
  const loading = new Map<string, { generation: number; record: Promise<ServingKeyRecord | null> }>();
  const listeners: ((tenantId: string | undefined) => void)[] = [];
  let generation = 0;

  const cache: ServingKeyCache = {
    get generation() {
      return generation;
    },
    async find(q, id, beforeLookup) {
      if (!EMBED_KEY_SHAPE.test(id)) return null;
      await beforeLookup?.(id);
      const hit = entries.get(id);
      if (hit) return hit.shaped ?? servingKeyOf(hit.record);
      let pending = loading.get(id);
      if (!pending || pending.generation !== generation) {
        const started = generation;
        const record = readServingKey(q, id).then((found) => {
          // A change announced while the query ran may not be in what it read: answer it, do not keep it.
          if (found && started === generation) entries.set(id, entryOf(found));
          return found;
        });
        pending = { generation: started, record };
        loading.set(id, pending);
        void record.finally(() => loading.get(id) === pending && loading.delete(id)).catch(() => undefined);
      }
      const record = await pending.record;
      return record && servingKeyOf(record);
    },
    invalidate(tenantId) {
      generation += 1;
      if (tenantId) {
        for (const [id, entry] of entries.entries()) if (entry.record.key.tenantId === tenantId) entries.delete(id);
      } else {
        entries.clear();
      }
      for (const listener of listeners) listener(tenantId);
    },
    onInvalidate(listener) {
      listeners.push(listener);
    },
    close() {
      caches.delete(cache);
      entries.clear();
    },
  };
  caches.add(cache);
  return cache;
}
