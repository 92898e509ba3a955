import type { Database } from './types';

// Next.js compiles its own copy of server modules, so process-wide resources live on globalThis, not in module scope.
const holder = globalThis as unknown as { __frDatabase?: Database };

export function setGlobalDatabase(database: Database): void {
  holder.__frDatabase = database;
}

export function getGlobalDatabase(): Database {
  if (!holder.__frDatabase) throw new Error('Database not initialised: start the service through server/http/main.ts');
  return holder.__frDatabase;
}
