'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { card } from '../catalog/catalog-ui';
import { CopyButton } from '../ui/copy-button';
import { Loading, QueryError } from '../ui/query-state';
import { WebhookEndpointForm, type EndpointDraft } from './webhook-endpoint-form';
import { WebhookRow } from './webhook-row';

const EMPTY: EndpointDraft = { url: '', description: '', events: [] };

export function WebhooksManager({ mode }: { mode: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const endpoints = useQuery(trpc.webhooks.listWebhookEndpoints.queryOptions({}));
  const eventTypes = useQuery(trpc.webhooks.listWebhookEventTypes.queryOptions({}));
  // A new form after each creation, so the fields start empty again.
  const [formKey, setFormKey] = useState(0);
  const create = useMutation(
    trpc.webhooks.createWebhookEndpoint.mutationOptions({
      onSuccess: () => {
        setFormKey((k) => k + 1);
        return qc.invalidateQueries({ queryKey: trpc.webhooks.listWebhookEndpoints.queryKey() });
      },
    }),
  );
  const created = create.data;

  return (
    <div className="space-y-8">
      <section className={card} aria-labelledby="add-endpoint">
        <h2 id="add-endpoint" className="mb-4 font-semibold">
          Add an endpoint
        </h2>
        {eventTypes.isError ? (
          <QueryError error={eventTypes.error} title="The event types could not be read." />
        ) : eventTypes.data ? (
          <WebhookEndpointForm
            key={formKey}
            title="Add an endpoint"
            initial={EMPTY}
            eventTypes={eventTypes.data}
            submitLabel="Add endpoint"
            busyLabel="Adding…"
            busy={create.isPending}
            error={create.error}
            onSubmit={(d) => create.mutate({ url: d.url.trim(), events: d.events, ...(d.description.trim() ? { description: d.description.trim() } : {}) })}
          />
        ) : (
          <Loading label="Loading event types…" />
        )}
      </section>
      {created?.secret && (
        <div role="status" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <p className="font-semibold">Copy this signing secret now: it is shown only once.</p>
          <p>
            Your receiver verifies each delivery with it. If you lose it, delete the endpoint and add it again to get a new one.
          </p>
          <div className="flex min-w-0 flex-wrap items-center gap-2">
            <code data-testid="webhook-secret" className="min-w-0 break-all rounded bg-white px-2 py-1 font-mono text-xs text-slate-900">
              {created.secret}
            </code>
            <CopyButton value={created.secret} label="Copy signing secret" />
          </div>
        </div>
      )}
      <section aria-labelledby="endpoints" className="space-y-3">
        <h2 id="endpoints" className="font-semibold">
          Endpoints
        </h2>
        {endpoints.isPending && <Loading label="Loading endpoints…" />}
        {endpoints.isError && <QueryError error={endpoints.error} title="The endpoints could not be read." />}
        {endpoints.data && (
          <ul className="space-y-3">
            {endpoints.data.map((ep) => (
              <WebhookRow key={ep.id} endpoint={ep} eventTypes={eventTypes.data ?? []} />
            ))}
            {endpoints.data.length === 0 && <li className="text-sm text-slate-500">No endpoints in {mode} yet.</li>}
          </ul>
        )}
      </section>
    </div>
  );
}
