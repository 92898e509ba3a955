'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { card } from '../catalog/catalog-ui';
import { Loading, QueryError } from '../ui/query-state';
import { EmbedKeyForm, originsOf, type EmbedKeyDraft } from './embed-key-form';
import { EmbedKeyRow } from './embed-key-row';
import { EmbedSnippet } from './embed-snippet';
import { useFlowOptions } from './use-flow-options';

const EMPTY: EmbedKeyDraft = { name: '', origins: '', flowId: '' };

/** The mode's embed keys: create one for a flow and its origins, copy its snippet, change origins, revoke. */
export function EmbedKeysManager({ mode, publicUrl, presetFlowId }: { mode: string; publicUrl: string; presetFlowId?: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const keys = useQuery(trpc.embedKeys.listEmbedKeys.queryOptions({}));
  const flows = useFlowOptions();
  const [formKey, setFormKey] = useState(0);
  const create = useMutation(
    trpc.embedKeys.createEmbedKey.mutationOptions({
      onSuccess: () => {
        setFormKey((k) => k + 1);
        return qc.invalidateQueries({ queryKey: trpc.embedKeys.listEmbedKeys.queryKey() });
      },
    }),
  );
  const created = create.data;

  return (
    <div className="space-y-8">
      <section className={card} aria-labelledby="new-embed-key">
        <h2 id="new-embed-key" className="mb-4 font-semibold">
          Create an embed key
        </h2>
        <EmbedKeyForm
          key={formKey}
          title="Create an embed key"
          initial={{ ...EMPTY, flowId: presetFlowId ?? '' }}
          flows={flows}
          withFlow
          submitLabel="Create key"
          busyLabel="Creating…"
          busy={create.isPending}
          error={create.error}
          onSubmit={(d) =>
            create.mutate({
              allowedOrigins: originsOf(d.origins),
              ...(d.name.trim() ? { name: d.name.trim() } : {}),
              ...(d.flowId ? { flowId: d.flowId } : {}),
            })
          }
        />
      </section>
      {created && created.flowId && (
        <div role="status" className="space-y-2 rounded-md border border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
          <p className="font-semibold">Key created. Paste this where the flow should appear on {created.allowedOrigins[0] ?? 'your site'}:</p>
          <EmbedSnippet publicUrl={publicUrl} embedKey={created.id} />
        </div>
      )}
      <section aria-labelledby="embed-keys" className="space-y-3">
        <h2 id="embed-keys" className="font-semibold">
          Keys
        </h2>
        {keys.isPending && <Loading label="Loading embed keys…" />}
        {keys.isError && <QueryError error={keys.error} title="The embed keys could not be read." />}
        {keys.data && (
          <ul className="space-y-3">
            {keys.data.map((k) => (
              <EmbedKeyRow key={k.id} embedKey={k} flows={flows} publicUrl={publicUrl} />
            ))}
            {keys.data.length === 0 && <li className="text-sm text-slate-500">No embed keys in {mode} yet.</li>}
          </ul>
        )}
      </section>
    </div>
  );
}
