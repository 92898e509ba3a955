'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton } from '../catalog/catalog-ui';
import { Loading, QueryError } from '../ui/query-state';
import { ExperimentCard } from './experiment-card';
import { ExperimentCreateForm } from './experiment-create-form';

/**
 * A flow's experiments, newest first, with live results, and the form to start one while none is running.
 * The control is the live version's document (else the draft's, as the server checks overrides).
 */
export function ExperimentsManager({ flowId, readsFlow, canManage }: { flowId: string; readsFlow: boolean; canManage: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [creating, setCreating] = useState(false);
  const list = useQuery(trpc.experiments.list.queryOptions({ id: flowId }));
  const flow = useQuery({ ...trpc.flows.get.queryOptions({ id: flowId }), enabled: readsFlow });
  const versions = useQuery({ ...trpc.flows.versions.queryOptions({ id: flowId }), enabled: readsFlow });
  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: trpc.experiments.list.queryKey({ id: flowId }) }), qc.invalidateQueries({ queryKey: trpc.flows.get.queryKey({ id: flowId }) })]);

  const active = flow.data?.activeVersion ? versions.data?.find((v) => v.id === flow.data?.activeVersion?.id) : undefined;
  const control = active?.document ?? (flow.data && !flow.data.activeVersion ? flow.data.draft : undefined);
  const running = list.data?.some((e) => e.status === 'running') ?? false;

  return (
    <div className="space-y-6">
      {list.isPending && <Loading label="Loading the experiments…" />}
      {list.isError && <QueryError error={list.error} title="The experiments could not be read." />}
      {!canManage && <p className="text-sm text-slate-600">Starting or stopping an experiment changes what patients read, so it needs a role that can edit flows; you can read the results.</p>}
      {canManage && list.data && !running && !creating && (
        <BusyButton onClick={() => setCreating(true)} disabled={!control}>
          New experiment
        </BusyButton>
      )}
      {canManage && running && !creating && <p className="text-sm text-slate-600">One experiment runs on a flow at a time; stop it to start another.</p>}
      {readsFlow && (flow.isError || versions.isError) && <QueryError error={flow.error ?? versions.error} title="The flow could not be read." />}
      {canManage && !readsFlow && <p className="text-sm text-slate-600">Starting an experiment needs a role that can read the flow, to preview both arms.</p>}
      {creating && control && (
        <ExperimentCreateForm
          flowId={flowId}
          control={control}
          onCreated={async () => {
            setCreating(false);
            await refresh();
          }}
        />
      )}
      {list.data?.length === 0 && !creating && <p className="text-sm text-slate-600">No experiments on this flow yet.</p>}
      {list.data?.map((e) => (
        <ExperimentCard key={e.id} experiment={e} canManage={canManage} onChanged={refresh} />
      ))}
    </div>
  );
}
