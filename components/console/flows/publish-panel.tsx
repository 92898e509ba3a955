'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ShortHash } from '../intake/intake-ui';
import { QueryError } from '../ui/query-state';
import { publishOutcome, VersionLine } from './flow-status';
import { PublishError } from './publish-problem';
import type { Flow } from './flow-types';

const TONE = { copy: 'border-emerald-200 bg-emerald-50 text-emerald-900', clinical: 'border-amber-300 bg-amber-50 text-amber-950', first: 'border-amber-300 bg-amber-50 text-amber-950', unknown: 'border-slate-200 bg-slate-50 text-slate-700' };

/**
 * Where the flow stands (live version, version waiting for a provider) and what Publish will do with the
 * saved draft: a copy-only change goes live at once, a clinical change waits for a provider.
 */
export function PublishPanel({ flow, dirty, canManage }: { flow: Flow; dirty: boolean; canManage: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const [archiving, setArchiving] = useState(false);
  const refresh = () =>
    Promise.all([qc.invalidateQueries({ queryKey: trpc.flows.get.queryKey({ id: flow.id }) }), qc.invalidateQueries({ queryKey: trpc.flows.versions.queryKey({ id: flow.id }) }), qc.invalidateQueries({ queryKey: trpc.flows.list.queryKey() })]);
  const publish = useMutation(trpc.flows.publish.mutationOptions({ onSuccess: refresh }));
  // A refusal is about the draft it was given: once a save changes the draft, it no longer stands.
  const { isError: refused, reset: forgetRefusal } = publish;
  useEffect(() => {
    if (refused) forgetRefusal();
  }, [flow.updatedAt]);
  const archive = useMutation(
    trpc.flows.archive.mutationOptions({
      onSuccess: async () => {
        setArchiving(false);
        await refresh();
        router.refresh();
      },
    }),
  );
  const outcome = publishOutcome(flow);
  const result = publish.data;
  const archived = flow.status === 'archived';

  return (
    <section aria-labelledby="publication" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="publication" className="font-semibold">
        Publication
      </h2>
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <VersionLine label="Live for patients" version={flow.activeVersion} />
        <VersionLine label="Waiting for a provider" version={flow.pendingVersion} />
        <div className="min-w-0">
          <dt className="font-medium text-slate-500">Draft clinical plane</dt>
          <dd>{flow.draftClinicalPlaneHash ? <ShortHash hash={flow.draftClinicalPlaneHash} /> : '—'}</dd>
        </div>
        <div className="min-w-0">
          <dt className="font-medium text-slate-500">Live clinical plane</dt>
          <dd>{flow.activeVersion ? <ShortHash hash={flow.activeVersion.clinicalPlaneHash} /> : '—'}</dd>
        </div>
      </dl>
      {!archived && (
        <p data-testid="publish-outcome" data-kind={outcome.kind} className={`rounded-md border px-3 py-2 text-sm ${TONE[outcome.kind]}`}>
          {outcome.text}
        </p>
      )}
      {canManage && !archived && (
        <div className="flex flex-wrap items-center gap-2">
          <BusyButton busy={publish.isPending} busyLabel="Publishing…" disabled={dirty} aria-describedby={dirty ? 'publish-needs-save' : undefined} onClick={() => publish.mutate({ id: flow.id })}>
            Publish
          </BusyButton>
          {dirty && (
            <span id="publish-needs-save" className="text-sm text-slate-600">
              Save the draft first: Publish sends the saved draft.
            </span>
          )}
          <BusyButton variant="danger" onClick={() => setArchiving(true)}>
            Archive
          </BusyButton>
        </div>
      )}
      <div role="status">
        {result && (
          <p data-testid="publish-result" className={`rounded-md border px-3 py-2 text-sm ${result.status === 'published' ? TONE.copy : TONE.clinical}`}>
            {result.status === 'published'
              ? `Published: version ${result.version.number} is live.`
              : `Waiting for a provider: version ${result.version.number} is pending approval; patients keep the live version until then.`}
          </p>
        )}
      </div>
      {publish.isError && <PublishError error={publish.error} questionnaireKey={flow.draft.settings.questionnaireKey} />}
      {archiving && (
        <ConfirmDialog open title={`Archive “${flow.name}”?`} confirmLabel="Archive flow" busy={archive.isPending} onConfirm={() => archive.mutate({ id: flow.id })} onCancel={() => (archive.reset(), setArchiving(false))}>
          <p>Its embed keys stop answering at once and the hosted page goes offline. Sessions and analytics are kept. This cannot be undone.</p>
          {archive.isError && <QueryError error={archive.error} />}
        </ConfirmDialog>
      )}
    </section>
  );
}
