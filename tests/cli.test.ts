import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '@/db/schema';
import { openDatabase } from '@/server/db/client';
import { lockFileFor } from '@/server/db/pglite-lock';
import { sha256Hex } from '@/server/lib/crypto';
import { cliWorkspace } from './helpers/cli';

const embedded = !process.env.DATABASE_URL;
const ws = cliWorkspace('fr-cli-');
const { cli } = ws;

/** --json: stdout is exactly one JSON document. */
const doc = (res: { stdout: string }) => JSON.parse(res.stdout);

/** The stored rows for these plaintext keys, read straight from the database (only hashes are stored). */
async function storedKeys(...plaintexts: string[]) {
  const database = await openDatabase({ databaseUrl: ws.env.DATABASE_URL, pgliteDataDir: ws.dataDir });
  try {
    const { tenantId, livemode, keyType, scopes } = apiKeys;
    const hashes = plaintexts.map(sha256Hex);
    const rows = await database.db.select({ hash: apiKeys.hash, tenantId, livemode, keyType, scopes }).from(apiKeys).where(inArray(apiKeys.hash, hashes));
    return hashes.map((h) => rows.find((r) => r.hash === h));
  } finally {
    await database.close();
  }
}

describe('npm run cli', () => {
  it('creates and lists tenants, mints keys and migrates', async () => {
    const exitHooks = process.listenerCount('exit');
    const created = await cli('tenants:create', '--name', 'CLI Clinic', '--json', '--plan', 'growth');
    expect(created.code).toBe(0);
    const tenant = doc(created);
    expect(tenant).toMatchObject({ id: expect.stringMatching(/^ten_/), name: 'CLI Clinic', plan: 'growth' });
    if (embedded) expect(fs.existsSync(lockFileFor(ws.dataDir))).toBe(false); // the CLI's lock is released when it is done
    expect(process.listenerCount('exit')).toBe(exitHooks); // …and its exit hook with it

    const listed = await cli('--json', 'tenants:list');
    expect(listed.code).toBe(0);
    expect(doc(listed)).toEqual([tenant]);

    const minted = await cli('keys:create', '--tenant', tenant.id, '--name', 'Server', '--json');
    expect(minted.code).toBe(0);
    const { key, apiKey } = doc(minted);
    expect(key).toMatch(/^nk_sandbox_[0-9A-Za-z]{32}$/);
    expect(apiKey).toMatchObject({ name: 'Server', mode: 'sandbox', keyType: 'secret' });
    expect(JSON.stringify(apiKey)).not.toContain(key);

    // Without --json: human-readable lines, the plaintext printed once.
    const human = await cli('keys:create', '--tenant', tenant.id, '--name', 'Reader', '--mode', 'live', '--type', 'restricted', '--scopes', 'orders.read, events.read', '--expires-in-days', '30');
    expect(human.code).toBe(0);
    const restricted = human.stdout.match(/\b(rk_live_[0-9A-Za-z]{32})\b/)?.[1];
    expect(restricted, human.stdout).toBeDefined();
    expect(human.stdout).toContain('shown once');

    const [secretRow, restrictedRow] = await storedKeys(key, restricted!);
    expect(secretRow).toMatchObject({ tenantId: tenant.id, livemode: false, keyType: 'secret' });
    expect(restrictedRow).toMatchObject({ tenantId: tenant.id, livemode: true, keyType: 'restricted', scopes: ['orders.read', 'events.read'] });

    const migrated = await cli('migrate', '--json');
    expect(migrated.code).toBe(0);
    expect(doc(migrated)).toEqual({ migrated: true });
  }, 90_000);

  it('rejects bad input with exit code 2 and writes nothing', async () => {
    const badPlan = await cli('tenants:create', '--name', 'Gold Clinic', '--plan', 'platinum', '--json');
    expect(badPlan.code).toBe(2);
    expect(doc(badPlan).error.message).toContain('--plan');

    const missingName = await cli('tenants:create');
    expect(missingName.code).toBe(2);
    expect(missingName.stderr).toContain('--name is required');
    const unknown = await cli('tenants:drop', '--json');
    expect(unknown.code).toBe(2);
    expect(doc(unknown).error.message).toContain("Unknown command 'tenants:drop'");
    expect((await cli('keys:create', '--tenant', 'ten_x', '--name', 'k', '--expires-in-days', 'soon')).code).toBe(2);

    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tenants:create');

    const noTenant = await cli('keys:create', '--tenant', 'ten_missing', '--name', 'x', '--json');
    expect(noTenant.code).toBe(2);
    expect(doc(noTenant).error.message).toMatch(/No such tenant/);
    expect(doc(await cli('tenants:list', '--json')).map((t: { name: string }) => t.name)).not.toContain('Gold Clinic');
  }, 90_000);

  it('tenants:set changes the plan and merges feature flags; bad flags exit 2 and change nothing', async () => {
    const tenant = doc(await cli('tenants:create', '--name', 'Flag Clinic', '--json'));
    expect(tenant.features).toEqual({ flow_checkout: false, flow_ai_freeform_medical: false });

    const set = await cli('tenants:set', tenant.id, '--plan', 'scale', '--feature', 'flow_checkout=on', '--json');
    expect(set.code).toBe(0);
    expect(doc(set)).toMatchObject({ id: tenant.id, plan: 'scale', features: { flow_checkout: true, flow_ai_freeform_medical: false } });
    const both = await cli('tenants:set', tenant.id, '--feature', 'flow_ai_freeform_medical=on', '--feature', 'flow_checkout=off', '--json');
    expect(doc(both).features).toEqual({ flow_checkout: false, flow_ai_freeform_medical: true });
    expect((await cli('tenants:set', tenant.id, '--feature', 'flow_checkout=on')).stdout).toContain('flow_checkout=on');

    const unknownFlag = await cli('tenants:set', tenant.id, '--feature', 'flow_teleport=on', '--json');
    expect(unknownFlag.code).toBe(2);
    expect(doc(unknownFlag).error.message).toContain('--feature');
    expect((await cli('tenants:set', tenant.id, '--feature', 'flow_checkout=maybe', '--json')).code).toBe(2);
    expect((await cli('tenants:set', tenant.id, '--json')).code).toBe(2);
    expect((await cli('tenants:set', '--plan', 'scale', '--json')).code).toBe(2);
    const missing = await cli('tenants:set', 'ten_missing', '--plan', 'scale', '--json');
    expect(missing.code).toBe(2);
    expect(doc(missing).error.message).toMatch(/No such tenant/);
    const after = doc(await cli('tenants:list', '--json')).find((t: { id: string }) => t.id === tenant.id);
    expect(after).toMatchObject({ plan: 'scale', features: { flow_checkout: true, flow_ai_freeform_medical: true } });
  }, 90_000);

  it.skipIf(!embedded)('refuses an embedded database held by a running server', async () => {
    const holder = spawn('sleep', ['30']);
    fs.writeFileSync(lockFileFor(ws.dataDir), String(holder.pid));
    try {
      const res = await cli('tenants:create', '--name', 'Blocked', '--json');
      expect(res.code).toBe(2);
      expect(doc(res).error.message).toMatch(new RegExp(`\\(pid ${holder.pid}, usually the running server\\) holds the embedded database.*ops API \\(/v1/ops/`));
      expect(fs.readFileSync(lockFileFor(ws.dataDir), 'utf8')).toBe(String(holder.pid)); // the server's lock is untouched
    } finally {
      holder.kill();
      fs.rmSync(lockFileFor(ws.dataDir), { force: true });
    }
  }, 60_000);

  // The tests above run the commands in this process; this one spawns the real entry point, bin/cli.ts
  // (last, so the tenant it creates is not in the lists above).
  it('runs as its own process: exit codes, one JSON document on stdout, failures on stderr, no lock left', async () => {
    const created = await ws.spawnCli('tenants:create', '--name', 'Spawned Clinic', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toBe('');
    expect(created.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(doc(created)).toMatchObject({ id: expect.stringMatching(/^ten_/), name: 'Spawned Clinic' });
    if (embedded) expect(fs.existsSync(lockFileFor(ws.dataDir))).toBe(false);

    // Neither opens the database, so they may run side by side.
    const [help, unknown] = await Promise.all([ws.spawnCli('--help'), ws.spawnCli('tenants:drop')]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('tenants:create');
    expect(help.stderr).toBe('');
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toBe("Unknown command 'tenants:drop'. Run with --help for the list.\n");
  }, 90_000);
});
