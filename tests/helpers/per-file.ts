import { afterAll } from 'vitest';
import { keyCache } from '@/server/domain/developer/key-cache';
import { setClock } from '@/server/lib/clock';

/*
 * Runs around every test file. Files share their worker's modules (vitest.config.ts, `isolate: false`), so
 * what one file leaves in process-wide state must not reach the next: a moved clock, and verified API keys
 * cached for a database that file has closed.
 */
afterAll(() => {
  setClock(null);
  keyCache.clear();
});
