'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { RouterOutputs } from '@/web/console/types';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, StatusBadge } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { IdChip } from '../ui/copy-button';
import { formatDateTime } from '../ui/format';
import { QueryError } from '../ui/query-state';
import { EmbedKeyForm, originsOf, type FlowOption } from './embed-key-form';
import { EmbedSnippet } from './embed-snippet';

export type EmbedKey = RouterOutputs['embedKeys']['listEmbedKeys'][number];

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function EmbedKeyRow({ embedKey, flows, publicUrl }: { embedKey: EmbedKey; flows: readonly FlowOption[]; publicUrl: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const refresh = () => qc.invalidateQueries({ queryKey: trpc.embedKeys.listEmbedKeys.queryKey() });
  const [editing, setEditing] = useState(false);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const edit = useMutation(trpc.embedKeys.updateEmbedKey.mutationOptions({ onSuccess: () => (setEditing(false), refresh()) }));
  const revoke = useMutation(trpc.embedKeys.revokeEmbedKey.mutationOptions({ onSuccess: () => (setConfirmRevoke(false), refresh()) }));
  const revoked = embedKey.revokedAt !== null;
  const flow = embedKey.flowId ? flows.find((f) => f.id === embedKey.flowId) : undefined;
  const label = embedKey.name ?? embedKey.id;

  return (
    <li className="min-w-0 space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="embed-key" aria-label={label}>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <div className="min-w-0 flex-1 basis-64 space-y-1">
          <p className="break-words font-medium text-slate-900">{embedKey.name ?? 'Unlabelled key'}</p>
          <IdChip id={embedKey.id} />
        </div>
        <StatusBadge status={revoked ? 'revoked' : 'active'} />
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-slate-600 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-500">Allowed origins</dt>
        <dd className="break-all font-mono text-xs" data-testid="embed-key-origins">
          {embedKey.allowedOrigins.length ? embedKey.allowedOrigins.join(', ') : 'None (only this service’s own pages)'}
        </dd>
        <dt className="font-medium text-slate-500">Flow</dt>
        <dd className="break-words">{embedKey.flowId ? (flow?.name ?? embedKey.flowId) : 'None (public intake only)'}</dd>
        <dt className="font-medium text-slate-500">Created</dt>
        <dd>{formatDateTime(embedKey.createdAt)}</dd>
        {revoked && (
          <>
            <dt className="font-medium text-slate-500">Revoked</dt>
            <dd>{formatDateTime(embedKey.revokedAt)}</dd>
          </>
        )}
      </dl>
      {!revoked && embedKey.flowId && <EmbedSnippet publicUrl={publicUrl} embedKey={embedKey.id} />}
      {!revoked && (
        <div className="flex flex-wrap gap-2">
          <BusyButton variant="secondary" onClick={() => setEditing(!editing)} aria-expanded={editing}>
            Edit<span className="sr-only"> of {label}</span>
          </BusyButton>
          <BusyButton variant="danger" onClick={() => setConfirmRevoke(true)}>
            Revoke<span className="sr-only"> {label}</span>
          </BusyButton>
        </div>
      )}
      {editing && (
        <div className="rounded-md border border-slate-100 bg-slate-50 p-3">
          <EmbedKeyForm
            title={`Edit ${label}`}
            initial={{ name: embedKey.name ?? '', origins: embedKey.allowedOrigins.join('\n'), flowId: embedKey.flowId ?? '' }}
            flows={flows}
            withFlow
            submitLabel="Save changes"
            busyLabel="Saving…"
            busy={edit.isPending}
            error={edit.error}
            onSubmit={(draft) => {
              const origins = originsOf(draft.origins);
              const name = draft.name.trim() || null;
              const changes = {
                ...(name !== embedKey.name ? { name } : {}),
                ...(sameList(origins, embedKey.allowedOrigins) ? {} : { allowedOrigins: origins }),
                ...((draft.flowId || null) !== embedKey.flowId ? { flowId: draft.flowId || null } : {}),
              };
              if (Object.keys(changes).length === 0) return setEditing(false);
              edit.mutate({ id: embedKey.id, ...changes });
            }}
            onCancel={() => {
              edit.reset();
              setEditing(false);
            }}
          />
        </div>
      )}
      {confirmRevoke && (
        <ConfirmDialog
          open
          title="Revoke this embed key?"
          confirmLabel="Revoke key"
          busy={revoke.isPending}
          onConfirm={() => revoke.mutate({ id: embedKey.id })}
          onCancel={() => {
            revoke.reset();
            setConfirmRevoke(false);
          }}
        >
          <p className="break-all font-mono">{embedKey.id}</p>
          <p>Every page that embeds it, and its hosted page, stops working at once. This cannot be undone: a new key needs a new snippet.</p>
          {revoke.isError && <QueryError error={revoke.error} />}
        </ConfirmDialog>
      )}
    </li>
  );
}
