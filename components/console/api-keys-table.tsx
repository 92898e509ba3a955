export interface ConsoleApiKey {
  id: string;
  name: string;
  mode: 'sandbox' | 'live';
  keyType: 'secret' | 'restricted';
  prefix: string;
  last4: string;
  scopes: string[];
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  createdBy: { type: 'user' | 'api_key' | 'ops'; id: string | null } | null;
}

/**
 * The creator stays on the row after that person is deactivated or that key revoked: what they created
 * keeps working, so this is where an admin finds what to review after removing someone.
 */
function creator(key: ConsoleApiKey, byId: Map<string, ConsoleApiKey>) {
  const by = key.createdBy;
  if (!by || by.type === 'ops') return 'Platform operators';
  if (by.type === 'user') return `User ${by.id}`;
  const parent = by.id ? byId.get(by.id) : undefined;
  return parent ? `Key “${parent.name}” (${parent.prefix}…)` : `Key ${by.id}`;
}

function status(key: ConsoleApiKey) {
  if (key.revokedAt) return `Revoked ${new Date(key.revokedAt).toLocaleDateString()}`;
  if (key.expiresAt && new Date(key.expiresAt).getTime() <= Date.now()) return 'Expired';
  return 'Active';
}

export function ApiKeysTable({ keys, mode }: { keys: ConsoleApiKey[]; mode: string }) {
  const byId = new Map(keys.map((k) => [k.id, k]));
  return (
    <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="px-4 py-2">Name</th>
          <th>Key</th>
          <th>Type</th>
          <th>Created by</th>
          <th>Created</th>
          <th>Status</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr key={k.id} className="border-t border-slate-100 align-top">
            <td className="px-4 py-2">
              {k.name}
              <span className="block font-mono text-xs text-slate-500">{k.id}</span>
            </td>
            <td className="font-mono">
              {k.prefix}…{k.last4}
            </td>
            <td>
              {k.mode} {k.keyType}
              {k.keyType === 'restricted' && <span className="block text-xs text-slate-500">{k.scopes.join(', ')}</span>}
            </td>
            <td data-testid="key-creator">{creator(k, byId)}</td>
            <td>{new Date(k.createdAt).toLocaleString()}</td>
            <td>{status(k)}</td>
          </tr>
        ))}
        {keys.length === 0 && (
          <tr>
            <td colSpan={6} className="px-4 py-3 text-slate-500">
              No API keys in {mode} yet.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
