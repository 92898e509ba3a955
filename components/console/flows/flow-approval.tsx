'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BlockedReason } from '../ui/blocked-reason';
import { BusyButton } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ShortHash } from '../intake/intake-ui';
import { useProviderBlock } from '../intake/questionnaire-approve-button';
import { QueryError } from '../ui/query-state';
import { FlowClinicalDiff } from './flow-clinical-diff';
import type { Flow } from './flow-types';

/**
 * The version waiting for a provider: the clinical steps it changes against the live version, and for a
 * provider the Approve button. The approval carries the version id and clinical-plane hash shown here, so it
 * binds to what the provider read: if another version is pending by then, the API refuses (409).
 */
export function FlowApproval({ flow, isProvider }: { flow: Flow; isProvider: boolean }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const pending = flow.pendingVersion;
  const versions = useQuery(trpc.flows.versions.queryOptions({ id: flow.id }));
  const block = useProviderBlock(isProvider, 'a flow’s clinical steps');
  const [confirming, setConfirming] = useState(false);
  const approve = useMutation(
    trpc.flows.approve.mutationOptions({
      onSuccess: () => {
        setConfirming(false);
        return Promise.all([qc.invalidateQueries({ queryKey: trpc.flows.get.queryKey({ id: flow.id }) }), qc.invalidateQueries({ queryKey: trpc.flows.versions.queryKey({ id: flow.id }) }), qc.invalidateQueries({ queryKey: trpc.flows.list.queryKey() })]);
      },
      onError: () => setConfirming(false),
    }),
  );
  const published = approve.data;
  if (!pending) {
    return published ? (
      <p role="status" data-testid="approve-result" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        Approved: version {published.version.number} is live, under your name.
      </p>
    ) : null;
  }
  const pendingDoc = versions.data?.find((v) => v.id === pending.id)?.document;
  const activeDoc = flow.activeVersion ? versions.data?.find((v) => v.id === flow.activeVersion?.id)?.document : undefined;
  const reasonId = `flow-approve-reason-${flow.id}`;

  return (
    <section aria-labelledby="pending-approval" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4" data-testid="pending-approval">
      <h2 id="pending-approval" className="font-semibold text-amber-950">
        Version {pending.number} waits for a provider’s approval
      </h2>
      <p className="text-sm text-amber-950">
        Clinical plane <ShortHash hash={pending.clinicalPlaneHash} />. Patients keep getting {flow.activeVersion ? `version ${flow.activeVersion.number}` : 'nothing (the flow is not live yet)'} until it is approved.
      </p>
      {versions.isError && <QueryError error={versions.error} title="The versions could not be read." />}
      <div className="rounded-md bg-white p-3">
        <FlowClinicalDiff
          changes={flow.pendingClinicalChanges ?? { added: [], removed: [], changed: [], questionnaireChanged: false }}
          pending={pending}
          active={flow.activeVersion}
          pendingDoc={pendingDoc}
          activeDoc={activeDoc}
        />
      </div>
      {isProvider ? (
        <div className="flex flex-wrap items-center gap-3">
          <BusyButton busy={approve.isPending || block.checking} busyLabel={block.checking ? 'Checking…' : 'Approving…'} disabled={!!block.reason} aria-describedby={block.reason ? reasonId : undefined} onClick={() => setConfirming(true)}>
            Approve<span className="sr-only"> version {pending.number} of {flow.name}</span>
          </BusyButton>
          {block.reason && <BlockedReason id={reasonId} reason={block.reason} testId="approve-blocked-reason" />}
        </div>
      ) : (
        <p className="text-sm text-amber-950">A provider with a verified NPI approves it from this page.</p>
      )}
      {approve.isError && (
        <div data-testid="approve-error">
          <QueryError error={approve.error} title="The flow was not approved." />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Approve version ${pending.number} of “${flow.name}”?`}
        confirmLabel="Approve and publish"
        tone="primary"
        busy={approve.isPending}
        onConfirm={() => approve.mutate({ id: flow.id, versionId: pending.id, clinicalPlaneHash: pending.clinicalPlaneHash })}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Patients will answer these clinical steps from now on, under your name and NPI. Your approval is bound to the clinical plane you reviewed (hash{' '}
          <ShortHash hash={pending.clinicalPlaneHash} />
          ).
        </p>
      </ConfirmDialog>
    </section>
  );
}
