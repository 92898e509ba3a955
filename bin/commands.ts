import type { z } from 'zod';
import type { Principal } from '@/server/domain/auth/principal';
import { createApiKey } from '@/server/domain/developer/api-keys';
import { OPS_SCOPE } from '@/server/domain/developer/scopes';
import { createTenant, listTenants, requireTenant, updateTenant } from '@/server/domain/ops/tenants';
// The ops API's own request schemas: the CLI accepts exactly what POST /v1/ops/... accepts.
import { ZCreateTenantRequest } from '@/server/api/routers/ops/create-tenant.types';
import { ZUpdateTenantChanges } from '@/server/api/routers/ops/update-tenant.types';
import { ZCreateApiKey } from '@/server/api/routers/developer/api-key.types';
import { CERT_COMMANDS } from './cert-commands';
import { UsageError, type Command, type Options } from './cli-command';
import { DEV_COMMANDS } from './dev/commands';
import { PHARMACY_COMMANDS } from './pharmacy-commands';

const OPERATOR: Principal = { kind: 'key', tenantId: null, livemode: true, scopes: [OPS_SCOPE], rateLimitKey: 'cli' };

/** Parses with an API schema and names the offending flag (`keyType` → `--type`) in the message. */
function parse<S extends z.ZodType>(schema: S, input: Record<string, unknown>, flags: Record<string, string> = {}): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => {
    const field = String(i.path[0] ?? '');
    return `--${flags[field] ?? field}: ${i.message}`;
  });
  throw new UsageError(lines.join('\n'));
}

function required(o: Options, flag: string): string {
  const v = o[flag];
  if (v === undefined) throw new UsageError(`--${flag} is required`);
  return v;
}

function positiveNumber(v: string | undefined, flag: string): number | null {
  if (v === undefined) return null;
  const n = Number(v);
  if (!v.trim() || !Number.isFinite(n)) throw new UsageError(`--${flag} must be a number, not '${v}'`);
  return n;
}

/** A flag given several times (`multiple: true`), as its list of values. */
function list(o: Options, flag: string): string[] {
  const v = (o as Record<string, string | string[] | undefined>)[flag];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** `--feature flag=on|off`, repeated, as the ops API's `features` object. */
function featureChanges(values: string[]): Record<string, boolean> | undefined {
  if (values.length === 0) return undefined;
  const out: Record<string, boolean> = {};
  for (const v of values) {
    const m = /^([a-z_]+)=(on|off)$/.exec(v.trim());
    if (!m) throw new UsageError(`--feature: expected flag=on|off, not '${v}'`);
    out[m[1]] = m[2] === 'on';
  }
  return out;
}

export const COMMANDS: Record<string, Command> = {
  'tenants:create': {
    summary: 'Create a tenant (clinic)',
    usage: '--name <name> [--plan free|starter|growth|scale|enterprise]',
    options: { name: { type: 'string' }, plan: { type: 'string' } },
    prepare(o) {
      const input = parse(ZCreateTenantRequest, { name: required(o, 'name'), plan: o.plan });
      return async (db) => {
        const tenant = await createTenant(db, input);
        return { value: tenant, human: `Created tenant ${tenant.id} (${tenant.name}, plan ${tenant.plan})` };
      };
    },
  },
  'tenants:list': {
    summary: 'List tenants, newest first',
    usage: '',
    options: {},
    prepare: () => async (db) => {
      const tenants = await listTenants(db);
      return { value: tenants, human: tenants.map((t) => `${t.id}  ${t.plan.padEnd(10)} ${t.name}`).join('\n') || 'No tenants.' };
    },
  },
  'tenants:set': {
    summary: "Change a tenant's plan or feature flags (flags merge with the stored ones)",
    usage: '<tenantId> [--plan free|starter|growth|scale|enterprise] [--feature flow_checkout|flow_ai_freeform_medical=on|off ...]',
    positionals: 1,
    options: { plan: { type: 'string' }, feature: { type: 'string', multiple: true } },
    prepare(o, positionals) {
      const tenantId = positionals[0]?.trim();
      if (!tenantId) throw new UsageError('Name the tenant: tenants:set <tenantId> …');
      const changes = parse(ZUpdateTenantChanges, { plan: o.plan, features: featureChanges(list(o, 'feature')) }, { features: 'feature' });
      if (!changes.plan && !Object.keys(changes.features ?? {}).length) throw new UsageError('Give --plan or at least one --feature flag=on|off.');
      return async (db) => {
        const tenant = await updateTenant(db, tenantId, changes);
        const flags = Object.entries(tenant.features).map(([k, v]) => `${k}=${v ? 'on' : 'off'}`).join(', ');
        return { value: tenant, human: `Updated tenant ${tenant.id} (${tenant.name}): plan ${tenant.plan}; ${flags}` };
      };
    },
  },
  'keys:create': {
    summary: 'Mint an API key for a tenant; the plaintext is printed once',
    usage: '--tenant <tenantId> --name <name> [--mode sandbox|live] [--type secret|restricted] [--scopes a,b] [--expires-in-days N]',
    options: {
      tenant: { type: 'string' },
      name: { type: 'string' },
      mode: { type: 'string' },
      type: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
    prepare(o) {
      const tenantId = required(o, 'tenant').trim();
      const input = parse(
        ZCreateApiKey,
        {
          name: required(o, 'name'),
          mode: o.mode,
          keyType: o.type,
          scopes: o.scopes?.split(',').map((s) => s.trim()).filter(Boolean),
          expiresInDays: positiveNumber(o['expires-in-days'], 'expires-in-days'),
        },
        { keyType: 'type', expiresInDays: 'expires-in-days' },
      );
      return async (db) => {
        await requireTenant(db, tenantId);
        const created = await createApiKey(db, OPERATOR, tenantId, input);
        const { id, mode, keyType } = created.apiKey;
        return {
          value: created,
          human: `Created ${mode} ${keyType} key ${id} for ${tenantId}:\n  ${created.key}\nIt is shown once: relay it over a secure channel.`,
        };
      };
    },
  },
  ...CERT_COMMANDS,
  ...DEV_COMMANDS,
  ...PHARMACY_COMMANDS,
  migrate: {
    summary: 'Apply database migrations (they also run at every start)',
    usage: '',
    options: {},
    prepare: () => async () => ({ value: { migrated: true }, human: 'Migrations applied.' }),
  },
};
