'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import type { RouterOutputs } from '@/web/console/types';
import { BusyButton, StatusBadge } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { IdChip } from '../ui/copy-button';
import { formatDateTime } from '../ui/format';
import { QueryError } from '../ui/query-state';
import { deliveryStatusWords } from '../ui/status-words';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEndpointForm, type EndpointDraft } from './webhook-endpoint-form';

export type Endpoint = RouterOutputs['webhooks']['listWebhookEndpoints'][number];

/** Only the fields the person changed: PATCH leaves the rest as they are. */
function changesOf(endpoint: Endpoint, draft: EndpointDraft) {
  const url = draft.url.trim();
  const description = draft.description.trim();
  const sameEvents = draft.events.length === endpoint.events.length && draft.events.every((t) => endpoint.events.includes(t));
  return {
    ...(url !== endpoint.url ? { url } : {}),
    ...(description !== (endpoint.description ?? '') ? { description } : {}),
    ...(sameEvents ? {} : { events: draft.events }),
  };
}

export function WebhookRow({ endpoint, eventTypes }: { endpoint: Endpoint; eventTypes: readonly string[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const listKey = trpc.webhooks.listWebhookEndpoints.queryKey({});
  const refreshList = () => qc.invalidateQueries({ queryKey: trpc.webhooks.listWebhookEndpoints.queryKey() });
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [history, setHistory] = useState(false);
  const enabled = endpoint.status === 'enabled';

  const edit = useMutation(
    trpc.webhooks.updateWebhookEndpoint.mutationOptions({
      onSuccess: () => {
        setEditing(false);
        return refreshList();
      },
    }),
  );
  // Enabling or disabling cannot fail for a reason the page does not know, so the badge flips at once and
  // flips back if the API refuses.
  const toggle = useMutation(
    trpc.webhooks.updateWebhookEndpoint.mutationOptions({
      onMutate: async ({ id, status }) => {
        await qc.cancelQueries({ queryKey: listKey });
        const before = qc.getQueryData(listKey);
        qc.setQueryData(listKey, (list) => list?.map((e) => (e.id === id && status ? { ...e, status } : e)));
        return { before };
      },
      onError: (_error, _input, context) => {
        if (context?.before) qc.setQueryData(listKey, context.before);
      },
      onSettled: refreshList,
    }),
  );
  const test = useMutation(
    trpc.webhooks.testWebhookEndpoint.mutationOptions({
      onSettled: () => {
        setHistory(true);
        void refreshList();
        return qc.invalidateQueries({ queryKey: trpc.webhooks.listWebhookDeliveries.queryKey({ id: endpoint.id }) });
      },
    }),
  );
  const remove = useMutation(
    trpc.webhooks.deleteWebhookEndpoint.mutationOptions({
      onSuccess: () => {
        setConfirmDelete(false);
        qc.removeQueries({ queryKey: trpc.webhooks.listWebhookDeliveries.queryKey({ id: endpoint.id }) });
        return refreshList();
      },
    }),
  );

  const result = test.data;
  return (
    <li className="min-w-0 space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="webhook-endpoint" aria-label={endpoint.url}>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-2">
        <div className="min-w-0 flex-1 basis-64 space-y-1">
          <p className="break-all font-mono font-medium text-slate-900">{endpoint.url}</p>
          {endpoint.description && <p className="break-words text-slate-700">{endpoint.description}</p>}
          <IdChip id={endpoint.id} />
        </div>
        <StatusBadge status={endpoint.status} />
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-slate-600 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-500">Events</dt>
        <dd className="break-words">{endpoint.events.length ? endpoint.events.join(', ') : 'All events'}</dd>
        <dt className="font-medium text-slate-500">Secret</dt>
        <dd className="font-mono">{endpoint.secretHint}</dd>
        <dt className="font-medium text-slate-500">Last delivery</dt>
        <dd>
          {endpoint.lastDelivery
            ? `${endpoint.lastDelivery.eventType} · ${deliveryStatusWords(endpoint.lastDelivery.status)}${endpoint.lastDelivery.responseCode ? ` (HTTP ${endpoint.lastDelivery.responseCode})` : ''} · ${formatDateTime(endpoint.lastDelivery.at)}`
            : 'None yet'}
        </dd>
        <dt className="font-medium text-slate-500">Created</dt>
        <dd>{formatDateTime(endpoint.createdAt)}</dd>
      </dl>
      <div className="flex flex-wrap gap-2">
        <BusyButton variant="secondary" onClick={() => setEditing(!editing)} aria-expanded={editing}>
          Edit
        </BusyButton>
        <BusyButton variant="secondary" disabled={toggle.isPending} onClick={() => toggle.mutate({ id: endpoint.id, status: enabled ? 'disabled' : 'enabled' })}>
          {enabled ? 'Disable' : 'Enable'}
        </BusyButton>
        <BusyButton variant="secondary" busy={test.isPending} busyLabel="Sending…" disabled={!enabled} onClick={() => test.mutate({ id: endpoint.id })}>
          Send test
        </BusyButton>
        <BusyButton variant="secondary" onClick={() => setHistory(!history)} aria-expanded={history}>
          Delivery history
        </BusyButton>
        <BusyButton variant="danger" onClick={() => setConfirmDelete(true)}>
          Delete
        </BusyButton>
      </div>
      {toggle.isError && <QueryError error={toggle.error} title="The endpoint could not be changed." />}
      {result && (
        <p role="status" data-testid="webhook-test-result" className="break-words text-slate-700">
          Test {deliveryStatusWords(result.status)}
          {result.responseCode ? ` (HTTP ${result.responseCode})` : ''}
          {result.lastError ? `: ${result.lastError}` : ''}
        </p>
      )}
      {test.isError && <QueryError error={test.error} title="The test could not be sent." />}
      {editing && (
        <div className="rounded-md border border-slate-100 bg-slate-50 p-3">
          <WebhookEndpointForm
            title={`Edit ${endpoint.url}`}
            initial={{ url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events }}
            eventTypes={eventTypes}
            submitLabel="Save changes"
            busyLabel="Saving…"
            busy={edit.isPending}
            error={edit.error}
            onSubmit={(draft) => {
              const changes = changesOf(endpoint, draft);
              if (Object.keys(changes).length === 0) return setEditing(false);
              edit.mutate({ id: endpoint.id, ...changes });
            }}
            onCancel={() => {
              edit.reset();
              setEditing(false);
            }}
          />
        </div>
      )}
      {history && <WebhookDeliveries endpointId={endpoint.id} />}
      {confirmDelete && (
        <ConfirmDialog
          open
          title="Delete this endpoint?"
          confirmLabel="Delete endpoint"
          busy={remove.isPending}
          onConfirm={() => remove.mutate({ id: endpoint.id })}
          onCancel={() => {
            remove.reset();
            setConfirmDelete(false);
          }}
        >
          <p className="break-all font-mono">{endpoint.url}</p>
          <p>Deliveries to it stop at once, its history is removed and its signing secret signs nothing more. This cannot be undone.</p>
          {remove.isError && <QueryError error={remove.error} />}
        </ConfirmDialog>
      )}
    </li>
  );
}
