import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFileFor } from '@/server/db/pglite-lock';
import { sha256Hex } from '@/server/lib/crypto';
import { openDatabase } from '@/server/db/client';
import { createScratchDatabase } from './helpers/harness';

const run = promisify(execFile);
let env: Record<string, string>;
let dataDir: string;
let drop: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-cli-'));
  const { DATABASE_URL: _unused, ...base } = process.env as Record<string, string>;
  env = { ...base, PGLITE_DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  if (process.env.DATABASE_URL) {
    const scratch = await createScratchDatabase(process.env.DATABASE_URL);
    env.DATABASE_URL = scratch.url;
    drop = scratch.drop;
  }
});
afterAll(async () => drop?.());

async function cli(...args: string[]) {
  try {
    const { stdout, stderr } = await run('node', ['--import', 'tsx', 'bin/cli.ts', ...args], { env: env as NodeJS.ProcessEnv, cwd: process.cwd() });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

describe('npm run cli', () => {
  it('creates and lists tenants and mints a key, printing one JSON document with --json', async () => {
    const created = await cli('tenants:create', '--name', 'CLI Clinic', '--plan', 'growth', '--json');
    expect(created.code).toBe(0);
    const tenant = JSON.parse(created.stdout);
    expect(tenant).toMatchObject({ name: 'CLI Clinic', plan: 'growth' });
    const listed = JSON.parse((await cli('tenants:list', '--json')).stdout);
    expect(listed.map((t: { id: string }) => t.id)).toContain(tenant.id);

    const minted = await cli('keys:create', '--tenant', tenant.id, '--name', 'Server', '--json');
    expect(minted.code).toBe(0);
    const { key, apiKey } = JSON.parse(minted.stdout);
    expect(key).toMatch(/^nk_sandbox_[0-9A-Za-z]{32}$/);
    expect(apiKey.mode).toBe('sandbox');

    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDataDir: dataDir });
    const { sql } = await import('drizzle-orm');
    const rows = (await database.db.execute(sql`select id from api_keys where hash = ${sha256Hex(key)}`)) as unknown as { rows: unknown[] };
    expect(rows.rows).toHaveLength(1);
    await database.close();

    expect((await cli('migrate', '--json')).stdout.trim()).toBe('{"migrated":true}');
  }, 90_000);

  it('rejects bad input with exit code 2 and writes nothing', async () => {
    const before = JSON.parse((await cli('tenants:list', '--json')).stdout).length;
    const bad = await cli('tenants:create', '--name', 'X', '--plan', 'platinum', '--json');
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.message).toContain('--plan');
    expect((await cli('tenants:create')).code).toBe(2);
    expect((await cli('nope')).code).toBe(2);
    const unknownTenant = await cli('keys:create', '--tenant', 'ten_missing', '--name', 'x');
    expect(unknownTenant.code).toBe(2);
    expect(JSON.parse((await cli('tenants:list', '--json')).stdout).length).toBe(before);
  }, 90_000);

  it.skipIf(Boolean(process.env.DATABASE_URL))('refuses an embedded database held by a running server', async () => {
    const holder = spawn('sleep', ['30']);
    fs.writeFileSync(lockFileFor(dataDir), String(holder.pid));
    try {
      const res = await cli('tenants:list', '--json');
      expect(res.code).toBe(2);
      expect(JSON.parse(res.stdout).error.message).toMatch(/running Fulfillment Rail server .*ops API/);
    } finally {
      holder.kill();
      fs.rmSync(lockFileFor(dataDir), { force: true });
    }
  }, 60_000);
});
