import { apiKeys } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { credentialActor, isOps, type Principal } from '@/server/domain/auth/principal';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { keyCache } from './key-cache';
import { mintKey, type KeyType } from './key-format';
import { hasScope, isKnownScope, OPS_SCOPE, SECRET_KEY_SCOPES } from './scopes';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export interface CreateApiKeyInput {
  name: string;
  mode: 'sandbox' | 'live';
  keyType: KeyType;
  scopes: string[];
  expiresInDays: number | null;
}

export function toPublicKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    mode: row.livemode ? ('live' as const) : ('sandbox' as const),
    keyType: row.keyType,
    prefix: row.prefix,
    last4: row.last4,
    scopes: row.scopes,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdByType ? { type: row.createdByType, id: row.createdBy } : null,
  };
}

/** The scopes a new key receives, after checking them against what its creator may delegate. */
function grantedScopes(creator: Principal, input: CreateApiKeyInput): string[] {
  if (input.keyType === 'secret') {
    // A secret key holds every scope a key can exercise (patients included) and outlives its creator, so
    // minting one from a narrower credential would be an escalation that survives the creator's revocation.
    const missing = isOps(creator) ? undefined : SECRET_KEY_SCOPES.find((s) => !hasScope(creator.scopes, s));
    if (missing) {
      throw errors.forbidden(
        `A secret key holds every tenant scope, and your credential lacks '${missing}'. Create a restricted key with the scopes you need.`,
        'scope_not_grantable',
      );
    }
    return [...SECRET_KEY_SCOPES];
  }
  const requested = [...new Set(input.scopes)];
  if (requested.length === 0) throw errors.validation('A restricted key needs at least one scope.', 'scopes', 'scopes_required');
  const ops = requested.find((s) => s.startsWith('ops.') || s === OPS_SCOPE);
  if (ops) throw errors.forbidden(`The scope '${ops}' cannot be granted to a tenant key.`, 'scope_not_grantable');
  const unknown = requested.find((s) => !isKnownScope(s));
  if (unknown) throw errors.validation(`Unknown scope '${unknown}'. See the scope catalog in the API reference.`, 'scopes', 'unknown_scope');
  if (!isOps(creator)) {
    const beyond = requested.find((s) => !hasScope(creator.scopes, s));
    if (beyond) throw errors.forbidden(`You cannot grant the scope '${beyond}', which your own credential does not hold.`, 'scope_not_grantable');
  }
  return requested;
}

function creatorOf(creator: Principal): Pick<ApiKeyRow, 'createdBy' | 'createdByType'> {
  const { kind, id } = credentialActor(creator);
  // The API names a creating key `api_key` (ApiKeyPublic.createdBy.type).
  return { createdBy: id, createdByType: kind === 'key' ? 'api_key' : kind };
}

/** Creates a key for `tenantId`; the plaintext is returned here and never again. */
export async function createApiKey(q: Queryable, creator: Principal, tenantId: string, input: CreateApiKeyInput) {
  const livemode = input.mode === 'live';
  if (livemode && !isOps(creator) && !creator.livemode) {
    throw errors.forbidden('A sandbox credential cannot create live keys. Use a live key or the console in live mode.', 'live_key_from_sandbox');
  }
  const scopes = grantedScopes(creator, input);
  const minted = mintKey(input.keyType, livemode);
  const createdAt = now();
  const expiresAt = input.expiresInDays == null ? null : new Date(createdAt.getTime() + input.expiresInDays * 86_400_000);
  const row = await scoped(q, { tenantId, livemode }).insert(apiKeys, {
    id: newId('apiKey'),
    name: input.name,
    keyType: input.keyType,
    prefix: minted.prefix,
    last4: minted.last4,
    hash: minted.hash,
    scopes,
    ...creatorOf(creator),
    expiresAt,
    createdAt,
  });
  return { key: minted.plaintext, apiKey: toPublicKey(row) };
}

/** A live principal manages the tenant's keys of both modes; a sandbox principal only sandbox keys. */
export function keyScope(q: Queryable, scope: Scope) {
  return scoped(q, scope, { bothModes: scope.livemode });
}

export async function listApiKeys(q: Queryable, scope: Scope) {
  return (await keyScope(q, scope).list(apiKeys, { order: 'newest' })).map(toPublicKey);
}

/** Irreversible; revoking an already revoked key changes nothing and returns it. */
export async function revokeApiKey(q: Queryable, scope: Scope, id: string) {
  const keys = keyScope(q, scope);
  const row = await keys.require(apiKeys, id, 'API key');
  if (row.revokedAt) return toPublicKey(row);
  const updated = await keys.update(apiKeys, id, { revokedAt: now() });
  keyCache.dropKey(id);
  return toPublicKey(updated ?? row);
}
