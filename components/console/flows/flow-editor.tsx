'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useState } from 'react';
import { apiErrorOf, useTRPC } from '@/web/trpc/client';
import { BusyButton, card } from '../catalog/catalog-ui';
import { Loading, QueryError } from '../ui/query-state';
import { FlowApproval } from './flow-approval';
import { FlowProtocolSetting } from './flow-protocol-setting';
import { FlowStatusBadge, FlowVersions } from './flow-status';
import { stepOfParam } from './flow-steps';
import type { DraftDocument, Flow } from './flow-types';
import { PublishPanel } from './publish-panel';
import { copyPatches, documentForSave } from './save-plan';
import { SaveError } from './save-error';
import { StepEditor } from './step-editor';
import { StepList } from './step-list';
import { ThemeEditor } from './theme-editor';
import { ThemePreview } from './theme-preview';

/** The editable copy of a flow: its name and draft document, compared with what the server holds. */
function useDraft(flow: Flow | undefined) {
  const [name, setName] = useState(flow?.name ?? '');
  const [doc, setDoc] = useState<DraftDocument | undefined>(flow?.draft);
  // A save or another tab's change arrives as a new `updatedAt`: start again from what the server holds.
  useEffect(() => {
    if (!flow) return;
    setName(flow.name);
    setDoc(flow.draft);
  }, [flow?.id, flow?.updatedAt]);
  const dirty = !!flow && !!doc && (name !== flow.name || JSON.stringify(doc) !== JSON.stringify(flow.draft));
  return { name, setName, doc, setDoc, dirty };
}

/**
 * One flow: its steps (reorder, add, remove, edit the copy), theme with a live preview, publication and
 * versions; for a provider, the clinical change waiting for approval. Without flows.manage (a provider) the
 * editing parts are not shown: providers approve, the growth team edits.
 */
export function FlowEditor({ flowId, canManage, isProvider }: { flowId: string; canManage: boolean; isProvider: boolean }) {
  const id = useId();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const flowQuery = useQuery(trpc.flows.get.queryOptions({ id: flowId }));
  const versions = useQuery(trpc.flows.versions.queryOptions({ id: flowId }));
  const flow = flowQuery.data;
  const { name, setName, doc, setDoc, dirty } = useDraft(flow);
  const [selected, setSelected] = useState(0);
  const [patchedIds, setPatchedIds] = useState<string[]>([]);
  const save = useMutation(
    trpc.flows.update.mutationOptions({
      onSuccess: (saved) => {
        qc.setQueryData(trpc.flows.get.queryKey({ id: flowId }), saved);
        return qc.invalidateQueries({ queryKey: trpc.flows.list.queryKey() });
      },
    }),
  );

  if (flowQuery.isPending) return <Loading label="Loading the flow…" />;
  if (flowQuery.isError) return <QueryError error={flowQuery.error} title="The flow could not be read." />;
  if (!flow || !doc) return null;

  const archived = flow.status === 'archived';
  const editable = canManage && !archived;
  const errorStep = save.isError ? stepOfParam(apiErrorOf(save.error).data?.param, doc.steps, patchedIds) : undefined;
  const step = doc.steps[selected] ?? doc.steps[0];

  function submit() {
    if (!flow || !doc) return;
    const patches = copyPatches(flow.draft, doc);
    const renamed = name.trim() !== flow.name ? { name: name.trim() } : {};
    setPatchedIds(patches?.map((p) => p.stepId) ?? []);
    save.mutate(patches ? { id: flow.id, ...renamed, ...(patches.length ? { stepPatches: patches } : {}) } : { id: flow.id, ...renamed, document: documentForSave(doc) });
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <FlowStatusBadge status={flow.status} />
        {flow.origin === 'ai' && <span className="rounded bg-violet-100 px-2 py-0.5 text-xs text-violet-800">AI draft: review every word before publishing</span>}
        <Link href={`/flows/${flow.id}/analytics`} className="text-sm text-indigo-700 underline">
          Analytics
        </Link>
        <Link href={`/flows/${flow.id}/experiments`} className="text-sm text-indigo-700 underline">
          Experiments
        </Link>
        {canManage && (
          <Link href={`/embed-keys?flow=${flow.id}`} className="text-sm text-indigo-700 underline">
            Embed keys ({flow.embedKeys.length})
          </Link>
        )}
      </div>

      <FlowApproval flow={flow} isProvider={isProvider} />
      <PublishPanel flow={flow} dirty={dirty} canManage={canManage} />

      {editable && (
        <form
          aria-label="Edit the draft"
          className="space-y-6"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <section className={`${card} space-y-3`} aria-labelledby={`${id}-draft`}>
            <h2 id={`${id}-draft`} className="font-semibold">
              Draft
            </h2>
            <div>
              <label htmlFor={`${id}-name`} className="block text-sm font-medium text-slate-700">
                Flow name
              </label>
              <input
                id={`${id}-name`}
                required
                maxLength={200}
                value={name}
                onChange={(e) => setName(e.target.value)}
                className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
              />
            </div>
            <div className="grid gap-6 lg:grid-cols-[minmax(0,18rem)_minmax(0,1fr)]">
              <StepList
                steps={doc.steps}
                selected={selected}
                invalid={errorStep}
                onSelect={setSelected}
                onChange={(steps, next) => {
                  setDoc({ ...doc, steps });
                  setSelected(next);
                }}
              />
              <div className="min-w-0 space-y-6">
                {step && <StepEditor key={`${selected}-${step.id}`} step={step} onChange={(changed) => setDoc({ ...doc, steps: doc.steps.map((s, i) => (i === selected ? changed : s)) })} />}
                <ThemePreview tokens={doc.theme.tokens} step={step} />
              </div>
            </div>
          </section>
          <section className={`${card} space-y-3`} aria-labelledby={`${id}-settings`}>
            <h2 id={`${id}-settings`} className="font-semibold">
              Settings
            </h2>
            <FlowProtocolSetting settings={doc.settings} onChange={(settings) => setDoc({ ...doc, settings })} />
          </section>
          <section className={card} aria-label="Theme">
            <ThemeEditor tokens={doc.theme.tokens} onChange={(tokens) => setDoc({ ...doc, theme: { tokens } })} />
          </section>
          {save.isError && <SaveError error={save.error} steps={doc.steps} stepIndex={errorStep} />}
          <div className="sticky bottom-0 flex flex-wrap items-center gap-3 border-t border-slate-200 bg-white/95 py-3">
            <BusyButton type="submit" busy={save.isPending} busyLabel="Saving…" disabled={!dirty}>
              Save draft
            </BusyButton>
            <BusyButton
              variant="secondary"
              disabled={!dirty}
              onClick={() => {
                save.reset();
                setName(flow.name);
                setDoc(flow.draft);
              }}
            >
              Discard changes
            </BusyButton>
            <span role="status" className="text-sm text-slate-600">
              {dirty ? 'Unsaved changes' : save.isSuccess ? 'Draft saved' : ''}
            </span>
          </div>
        </form>
      )}
      {!editable && (
        <section className={card} aria-label="Preview">
          <ThemePreview tokens={flow.draft.theme.tokens} step={flow.draft.steps[0]} />
        </section>
      )}

      <section aria-labelledby={`${id}-versions`} className={`${card} space-y-3`}>
        <h2 id={`${id}-versions`} className="font-semibold">
          Versions
        </h2>
        {versions.isPending && <Loading label="Loading versions…" />}
        {versions.isError && <QueryError error={versions.error} title="The versions could not be read." />}
        {versions.data && <FlowVersions versions={versions.data} />}
      </section>
    </div>
  );
}
