import { eq, inArray } from 'drizzle-orm';
import { catalogs, pharmacyConnections } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { secretHint, mintWebhookSecret } from '@/server/domain/webhooks/secrets';
import { type AdapterName } from '@/server/integrations/pharmacies';
import { adapterFor } from './adapter';
import type { ConnectionForAdapter } from '@/server/integrations/pharmacies/types';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { UrlRejected, validateWebhookUrl, type UrlPolicy } from '@/server/lib/ssrf';
import { issueMessage } from '@/server/lib/validation-messages';

export type ConnectionRow = typeof pharmacyConnections.$inferSelect;

export interface ConnectionInput {
  name: string;
  adapter: AdapterName;
  settings: Record<string, unknown>;
  states: string[];
  status: 'enabled' | 'disabled';
}

export function toConnectionDto(row: ConnectionRow, approvedCatalogId: string | null) {
  return {
    id: row.id,
    object: 'pharmacy_connection' as const,
    livemode: row.livemode,
    name: row.name,
    adapter: row.adapter,
    settings: row.settings,
    states: row.states,
    status: row.status,
    secretHint: secretHint(row.secret),
    callbackUrl: `/v1/pharmacy-callbacks/${row.id}`,
    approvedCatalogId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Where a pharmacy posts a connection's status callbacks, absolute under this service's public base URL. */
export const callbackUrlOf = (publicUrl: string, connectionId: string) => `${publicUrl.replace(/\/+$/, '')}/v1/pharmacy-callbacks/${connectionId}`;

export const forAdapter = (row: ConnectionRow): ConnectionForAdapter => ({ id: row.id, livemode: row.livemode, secret: row.secret, settings: row.settings });

/**
 * The adapter's own schema fills defaults and rejects unknown keys; an http pharmacy's base URL obeys the
 * webhook URL rules (DESIGN decision 7), checked here with DNS so a private host is refused at once.
 */
async function checkSettings(adapter: AdapterName, settings: Record<string, unknown>, policy: UrlPolicy, db: Db) {
  const parsed = adapterFor(db, adapter, policy).settingsSchema.safeParse(settings);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const param = ['settings', ...issue.path.map(String), ...(issue.code === 'unrecognized_keys' ? [issue.keys[0]] : [])].join('.');
    const message = issue.code === 'unrecognized_keys' ? `Unknown setting '${param}' for the ${adapter} adapter.` : issueMessage({ ...issue, path: ['settings', ...issue.path] });
    throw errors.validation(message, param);
  }
  if (adapter === 'http') {
    try {
      await validateWebhookUrl(String(parsed.data.baseUrl), policy);
    } catch (err) {
      if (err instanceof UrlRejected) throw errors.validation(err.message, 'settings.baseUrl', err.code);
      throw err;
    }
  }
  return parsed.data;
}

function checkMode(scope: Scope, adapter: AdapterName) {
  if (!scope.livemode && adapter !== 'simulated') {
    throw errors.validation('Sandbox pharmacy connections can only use the simulated adapter.', 'adapter', 'sandbox_requires_simulated');
  }
}

/** The secret is returned here and never again. */
export async function createConnection(db: Db, scope: Scope, input: ConnectionInput, policy: UrlPolicy) {
  checkMode(scope, input.adapter);
  const settings = await checkSettings(input.adapter, input.settings, policy, db);
  const at = now();
  const row = await scoped(db, scope).insert(pharmacyConnections, {
    id: newId('pharmacyConnection'),
    name: input.name,
    adapter: input.adapter,
    settings,
    states: [...new Set(input.states)].sort(),
    status: input.status,
    secret: mintWebhookSecret(),
    createdAt: at,
    updatedAt: at,
  });
  return { ...toConnectionDto(row, null), secret: row.secret };
}

async function approvedCatalogs(db: Db, scope: Scope, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: catalogs.id, connectionId: catalogs.connectionId })
    .from(catalogs)
    .where(scoped(db, scope).where(catalogs, inArray(catalogs.connectionId, ids), eq(catalogs.status, 'approved')));
  return new Map(rows.map((r) => [r.connectionId, r.id]));
}

export async function listConnections(db: Db, scope: Scope, page: { limit: number; startingAfter?: string }) {
  const rows = await scoped(db, scope).list(pharmacyConnections, page);
  const approved = await approvedCatalogs(db, scope, rows.map((r) => r.id));
  return rows.map((r) => toConnectionDto(r, approved.get(r.id) ?? null));
}

export async function requireConnection(db: Db, scope: Scope, id: string) {
  return scoped(db, scope).require(pharmacyConnections, id, 'pharmacy connection');
}

/** Changes only the fields sent; `settings`, when sent, replaces the whole script or configuration. */
export async function updateConnection(
  db: Db,
  scope: Scope,
  id: string,
  changes: Partial<Omit<ConnectionInput, 'adapter'>>,
  policy: UrlPolicy,
) {
  const s = scoped(db, scope);
  const existing = await s.require(pharmacyConnections, id, 'pharmacy connection');
  const set: Partial<ConnectionRow> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.states !== undefined) set.states = [...new Set(changes.states)].sort();
  if (changes.status !== undefined) set.status = changes.status;
  if (changes.settings !== undefined) set.settings = await checkSettings(existing.adapter, changes.settings, policy, db);
  const row = Object.keys(set).length ? await s.update(pharmacyConnections, id, { ...set, updatedAt: now() }) : existing;
  const approved = await approvedCatalogs(db, scope, [id]);
  return toConnectionDto(row ?? existing, approved.get(id) ?? null);
}

/** Connection rows of the scope by id, for checks that ids named in a request exist (policy, plan). */
export async function connectionsById(db: Db, scope: Scope, ids: string[]) {
  if (!ids.length) return new Map<string, ConnectionRow>();
  const rows = await db.select().from(pharmacyConnections).where(scoped(db, scope).where(pharmacyConnections, inArray(pharmacyConnections.id, ids)));
  return new Map(rows.map((r) => [r.id, r]));
}

