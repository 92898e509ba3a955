import type { ParseArgsConfig } from 'node:util';
import type { Db } from '@/server/db/types';
import type { Principal } from '@/server/domain/auth/principal';
import { createApiKey, requireTenant } from '@/server/domain/developer/api-keys';
import { OPS_SCOPE } from '@/server/domain/developer/scopes';
import { createTenant, listTenants, PLANS, type Plan } from '@/server/domain/ops/tenants';

export class UsageError extends Error {}

type Options = Record<string, string | undefined>;

export interface Command {
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  validate?(o: Options): void;
  run(db: Db, o: Options): Promise<{ value: unknown; human: string }>;
}

const OPERATOR: Principal = { kind: 'key', tenantId: null, livemode: true, scopes: [OPS_SCOPE], rateLimitKey: 'cli' };

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined {
  if (value !== undefined && !allowed.includes(value as T)) throw new UsageError(`--${flag} must be one of: ${allowed.join(', ')}`);
  return value as T | undefined;
}

function required(o: Options, flag: string): string {
  const v = o[flag]?.trim();
  if (!v) throw new UsageError(`--${flag} is required`);
  return v;
}

export const COMMANDS: Record<string, Command> = {
  'tenants:create': {
    summary: 'Create a tenant (clinic)',
    usage: '--name <name> [--plan free|starter|growth|scale|enterprise]',
    options: { name: { type: 'string' }, plan: { type: 'string' } },
    validate: (o) => {
      required(o, 'name');
      oneOf(o.plan, PLANS, 'plan');
    },
    async run(db, o) {
      const tenant = await createTenant(db, { name: required(o, 'name'), plan: oneOf<Plan>(o.plan, PLANS, 'plan') });
      return { value: tenant, human: `Created tenant ${tenant.id} (${tenant.name}, plan ${tenant.plan})` };
    },
  },
  'tenants:list': {
    summary: 'List tenants, newest first',
    usage: '',
    options: {},
    async run(db) {
      const tenants = await listTenants(db);
      return { value: tenants, human: tenants.map((t) => `${t.id}  ${t.plan.padEnd(10)} ${t.name}`).join('\n') || 'No tenants.' };
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
    validate: (o) => {
      required(o, 'tenant');
      required(o, 'name');
      oneOf(o.mode, ['sandbox', 'live'], 'mode');
      oneOf(o.type, ['secret', 'restricted'], 'type');
      const days = o['expires-in-days'];
      if (days !== undefined && !(Number(days) > 0)) throw new UsageError('--expires-in-days must be a positive number');
    },
    async run(db, o) {
      const tenantId = required(o, 'tenant');
      await requireTenant(db, tenantId);
      const created = await createApiKey(db, OPERATOR, tenantId, {
        name: required(o, 'name'),
        mode: oneOf(o.mode, ['sandbox', 'live'] as const, 'mode') ?? 'sandbox',
        keyType: oneOf(o.type, ['secret', 'restricted'] as const, 'type') ?? 'secret',
        scopes: o.scopes ? o.scopes.split(',').map((s) => s.trim()).filter(Boolean) : [],
        expiresInDays: o['expires-in-days'] ? Number(o['expires-in-days']) : null,
      });
      return {
        value: created,
        human: `Key ${created.apiKey.id} (${created.apiKey.mode}, ${created.apiKey.keyType}) for ${tenantId}:\n  ${created.key}\nIt is shown once: relay it over a secure channel.`,
      };
    },
  },
  migrate: {
    summary: 'Apply database migrations (they also run at every start)',
    usage: '',
    options: {},
    async run() {
      return { value: { migrated: true }, human: 'Migrations applied.' };
    },
  },
};
