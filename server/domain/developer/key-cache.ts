import type { Principal } from '@/server/domain/auth/principal';
import { processState } from '@/server/lib/process-container';

interface Entry {
  principal: Principal;
  keyId: string;
  expiresAt: Date | null;
  cachedUntil: number;
}

// Verified keys are remembered briefly so a hot key costs no query; revoke drops the entry at once in
// this process (one cache in the process container, whichever module copy revoked), and the short lifetime
// bounds how long another process may still honour a revoked key.
const TTL_MS = 5_000;
const cache = processState('api-key-cache', () => new Map<string, Entry>());

export const keyCache = {
  get(hash: string, nowMs: number): Entry | undefined {
    const entry = cache.get(hash);
    if (entry && entry.cachedUntil > nowMs) return entry;
    if (entry) cache.delete(hash);
    return undefined;
  },
  set(hash: string, entry: Omit<Entry, 'cachedUntil'>, nowMs: number): void {
    if (cache.size > 10_000) cache.clear();
    cache.set(hash, { ...entry, cachedUntil: nowMs + TTL_MS });
  },
  dropKey(keyId: string): void {
    for (const [hash, entry] of cache) if (entry.keyId === keyId) cache.delete(hash);
  },
  clear(): void {
    cache.clear();
  },
};
