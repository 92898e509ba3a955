import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { PgliteLease } from '@/server/db/client';

/*
 * The in-memory databases of one test worker, lent to one app at a time (issue 32). Starting a PGlite from the
 * run's migrated dump costs over a second of CPU, most of the PGlite run's set-up; emptying one that an app has
 * finished with costs a few hundredths. A database goes back to the pool only when it is provably as the dump
 * left it: no transaction open, nothing listened to, session state discarded, every table of the application
 * emptied (identities restarted), and the same schema and migrations as when it was made. Anything else (a test
 * that dropped the migrations table, altered a table, or a failing reset) closes it instead, and the next app
 * gets a fresh one. After release the app's handle refuses every call, so nothing an app left running (a timer,
 * a worker loop) can reach the next app's data through it.
 */

interface Pooled {
  client: PGlite;
  /** The statements that empty it: every application table truncated, every sequence restarted. */
  emptying: string;
  shape: string;
}

const idle: Pooled[] = [];
let dump: Blob | undefined;

// Everything the migrations made, as one value: columns, indexes, constraints, triggers, functions, sequences
// and the migrations journal. Equal to the value taken when the database was made, or the database is not reused.
const SHAPE = `
  select md5(string_agg(x, ',' order by x)) as shape from (
    select table_schema || '.' || table_name || '.' || column_name || ':' || data_type || ':' || coalesce(column_default, '') || is_nullable as x
      from information_schema.columns where table_schema in ('public', 'drizzle')
    union all select schemaname || '.' || indexname || ':' || indexdef from pg_indexes where schemaname in ('public', 'drizzle')
    union all select conrelid::regclass::text || '.' || conname || ':' || pg_get_constraintdef(oid) from pg_constraint where connamespace = 'public'::regnamespace
    union all select tgrelid::regclass::text || '.' || tgname || ':' || tgenabled::text from pg_trigger where not tgisinternal
    union all select proname || ':' || md5(prosrc) from pg_proc where pronamespace = 'public'::regnamespace
    union all select 'seq:' || sequencename from pg_sequences where schemaname = 'public'
    union all select 'migration:' || hash || ':' || created_at from drizzle.__drizzle_migrations
  ) s`;

async function make(): Promise<Pooled> {
  dump ??= new Blob([fs.readFileSync(process.env.FR_TEST_PGLITE_TEMPLATE!)]);
  const client = new PGlite({ loadDataDir: dump });
  await client.waitReady;
  // Read once: the shape check on every return proves the tables and sequences are still these.
  const { emptying } = (
    await client.query<{ emptying: string }>(`
      select concat_ws('; ',
        (select 'truncate ' || string_agg(format('%I.%I', schemaname, tablename), ', ') || ' restart identity cascade' from pg_tables where schemaname = 'public'),
        (select string_agg(format('alter sequence %I.%I restart', schemaname, sequencename), '; ') from pg_sequences where schemaname = 'public')
      ) as emptying`)
  ).rows[0];
  const shape = (await client.query<{ shape: string }>(SHAPE)).rows[0].shape;
  return { client, emptying, shape };
}

/** Empties a database an app has finished with; true when it is as the dump left it and may be lent again. */
async function reset(p: Pooled): Promise<boolean> {
  try {
    if (p.client.closed) return false;
    // An app closed mid-transaction (a test's deliberate crash) leaves it open on this one connection.
    await p.client.exec('rollback');
    for (const { channel } of (await p.client.query<{ channel: string }>('select pg_listening_channels() as channel')).rows) await p.client.unlisten(channel);
    await p.client.exec('discard all');
    if (p.emptying) await p.client.exec(p.emptying);
    return (await p.client.query<{ shape: string }>(SHAPE)).rows[0].shape === p.shape;
  } catch {
    return false;
  }
}

/** How many databases wait to be lent again (for the pool's own test). */
export const idlePglites = () => idle.length;

/** A database for one app; undefined outside `vitest run` (no migrated dump to start from). */
export async function lendPglite(): Promise<PgliteLease | undefined> {
  if (!process.env.FR_TEST_PGLITE_TEMPLATE) return undefined;
  const p = idle.pop() ?? (await make());
  let released = false;
  const client = new Proxy(p.client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      return (...args: unknown[]) => {
        if (released) throw new Error('PGlite is closed');
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    client,
    async release() {
      if (released) return;
      released = true;
      if (await reset(p)) idle.push(p);
      else await p.client.close().catch(() => undefined);
    },
  };
}
