'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RouterOutputs } from '@/web/console/types';
import { useTRPC } from '@/web/trpc/client';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { IdChip } from '../ui/copy-button';
import { TableScroll } from '../ui/data-table';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';

export type ConsoleApiKey = RouterOutputs['developer']['apiKeysWithCreators'][number];

/**
 * The creator stays on the row after that person is deactivated or that key revoked: what they created
 * keeps working, so this is where an admin finds what to review after removing someone.
 */
function Creator({ apiKey, byId }: { apiKey: ConsoleApiKey; byId: Map<string, ConsoleApiKey> }) {
  const by = apiKey.createdBy;
  if (!by || by.type === 'ops') return <span data-testid="key-creator">Platform operators</span>;
  if (by.type === 'user') {
    return (
      <>
        <span data-testid="key-creator" className="break-words">
          {apiKey.createdByName ?? 'A former member'}
        </span>
        {by.id && (
          <span className="block">
            <IdChip id={by.id} />
          </span>
        )}
      </>
    );
  }
  const parent = by.id ? byId.get(by.id) : undefined;
  return (
    <>
      <span data-testid="key-creator" className="break-words">
        {parent ? `Key “${parent.name}” (${parent.prefix}…)` : 'Another key'}
      </span>
      {!parent && by.id && (
        <span className="block">
          <IdChip id={by.id} />
        </span>
      )}
    </>
  );
}

function Status({ apiKey }: { apiKey: ConsoleApiKey }) {
  if (apiKey.revokedAt) return <span className="text-red-700">Revoked {formatDateTime(apiKey.revokedAt)}</span>;
  if (apiKey.expiresAt && new Date(apiKey.expiresAt).getTime() <= Date.now()) return <span className="text-amber-800">Expired</span>;
  return <span className="text-emerald-700">Active</span>;
}

const cell = 'px-4 py-2 align-top';

export function ApiKeysTable({ mode }: { mode: 'sandbox' | 'live' }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const keys = useQuery(trpc.developer.apiKeysWithCreators.queryOptions({}));
  const [revoking, setRevoking] = useState<ConsoleApiKey>();
  const revoke = useMutation(
    trpc.developer.revokeApiKey.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries({ queryKey: trpc.developer.apiKeysWithCreators.queryKey() });
        setRevoking(undefined);
      },
    }),
  );

  if (keys.isPending) return <Loading label="Loading API keys…" />;
  if (keys.isError) return <QueryError error={keys.error} title="The API keys could not be read." />;
  const byId = new Map(keys.data.map((k) => [k.id, k]));
  return (
    <>
      <TableScroll label="API keys">
        <table className="w-full min-w-[52rem] text-left text-sm">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className={cell}>Name</th>
              <th className={cell}>Key</th>
              <th className={cell}>Type and scopes</th>
              <th className={cell}>Created</th>
              <th className={cell}>Last used</th>
              <th className={cell}>Expires</th>
              <th className={cell}>Status</th>
              <th className={`${cell} relative`}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((k) => (
              <tr key={k.id} className="border-t border-slate-100">
                <td className={`${cell} max-w-48`}>
                  <span className="block break-words font-medium text-slate-900">{k.name}</span>
                  <IdChip id={k.id} />
                </td>
                <td className={`${cell} whitespace-nowrap font-mono`}>
                  {k.prefix}…{k.last4}
                </td>
                <td className={`${cell} max-w-64`}>
                  <span className="capitalize">{k.mode}</span> {k.keyType}
                  <span className="block break-words text-xs text-slate-500">{k.keyType === 'restricted' ? k.scopes.join(', ') : 'Every scope a key can hold'}</span>
                </td>
                <td className={`${cell} max-w-56`}>
                  <span className="block whitespace-nowrap">{formatDateTime(k.createdAt)}</span>
                  <span className="text-xs text-slate-500">by</span> <Creator apiKey={k} byId={byId} />
                </td>
                <td className={`${cell} max-w-32`}>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'Never'}</td>
                <td className={`${cell} max-w-32`}>{k.expiresAt ? formatDateTime(k.expiresAt) : 'Never'}</td>
                <td className={`${cell} max-w-32`}>
                  <Status apiKey={k} />
                </td>
                <td className={`${cell} text-right`}>
                  {!k.revokedAt && (
                    <button
                      type="button"
                      onClick={() => {
                        revoke.reset();
                        setRevoking(k);
                      }}
                      aria-label={`Revoke ${k.name}`}
                      className="rounded-md border border-red-200 px-2 py-1 text-xs font-semibold text-red-700 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-red-600"
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
            {keys.data.length === 0 && (
              <tr>
                <td colSpan={8} className="px-4 py-3 text-slate-500">
                  No API keys in {mode} yet.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </TableScroll>
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        busy={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
        onCancel={() => setRevoking(undefined)}
      >
        <p>
          Every request with the key <span className="font-mono">{revoking ? `${revoking.prefix}…${revoking.last4}` : ''}</span> is refused from now on. This cannot be undone; keys
          it created keep working.
        </p>
        {revoke.isError && <QueryError error={revoke.error} />}
      </ConfirmDialog>
    </>
  );
}
