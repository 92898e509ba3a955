'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BlockedReason } from '../ui/blocked-reason';
import { useState } from 'react';
import { apiErrorOf, useTRPC, useTRPCClient } from '@/web/trpc/client';
import { BusyButton } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { ShortHash } from './intake-ui';
import { QueryError } from '../ui/query-state';
import type { QuestionnaireRecord, QuestionnaireVersion } from './questionnaire-types';

/**
 * Why the signed-in person may not approve a questionnaire (or a flow's clinical steps), or null. The API's provider check answers for
 * the session (a 403 says why it is no provider's: role, NPI not verified, no two-factor); neither
 * needs a state license, so any state serves for the question and its license answer is ignored.
 */
export function useProviderBlock(isProvider: boolean, what = 'a questionnaire'): { reason: string | null; checking: boolean } {
  const client = useTRPCClient();
  const check = useQuery({
    queryKey: ['auth.providerCheck', 'questionnaire'],
    queryFn: () => client.auth.providerCheck.mutate({ state: 'CA' }),
    enabled: isProvider,
    retry: false,
    staleTime: 60_000,
  });
  if (!isProvider) return { reason: `Approving ${what} is for a provider with a verified NPI; your role is not one.`, checking: false };
  if (check.isPending) return { reason: null, checking: true };
  if (check.isError) return { reason: apiErrorOf(check.error).message, checking: false };
  return { reason: null, checking: false };
}

/**
 * A provider's approval of one pending version, with an optional note. The call carries the content hash
 * of the version on screen, so the approval binds to what the provider read: if the stored document
 * differs, the API refuses (409) and nothing is approved. The outcome is the parent's to show: once
 * approved, the version leaves the pending list and this button with it.
 */
export function QuestionnaireApproveButton({ version, isProvider, onApproved }: { version: QuestionnaireVersion; isProvider: boolean; onApproved: (approved: QuestionnaireRecord) => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const block = useProviderBlock(isProvider);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const approve = useMutation(
    trpc.intake.approveQuestionnaire.mutationOptions({
      onSuccess: (approved) => {
        setConfirming(false);
        onApproved(approved);
        return qc.invalidateQueries({ queryKey: trpc.intake.questionnaireVersions.queryKey() });
      },
      onError: () => setConfirming(false),
    }),
  );
  const reasonId = `q-approve-reason-${version.id}`;
  const noteId = `q-approve-note-${version.id}`;

  return (
    <div className="space-y-3">
      {!block.reason && (
        <div>
          <label htmlFor={noteId} className="block text-sm font-medium text-slate-700">
            Note (optional, kept with the approval)
          </label>
          <textarea
            id={noteId}
            value={note}
            maxLength={2000}
            rows={2}
            onChange={(e) => setNote(e.target.value)}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
          />
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <BusyButton
          busy={approve.isPending || block.checking}
          busyLabel={block.checking ? 'Checking…' : 'Approving…'}
          disabled={!!block.reason}
          onClick={() => setConfirming(true)}
          aria-describedby={block.reason ? reasonId : undefined}
        >
          Approve<span className="sr-only"> version {version.version} of {version.title}</span>
        </BusyButton>
        {block.reason && <BlockedReason id={reasonId} reason={block.reason} testId="approve-blocked-reason" />}
      </div>
      {approve.isError && (
        <div data-testid="approve-error">
          <QueryError error={approve.error} title="The questionnaire was not approved." />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Approve version ${version.version} of “${version.title}”?`}
        confirmLabel="Approve questionnaire"
        tone="primary"
        busy={approve.isPending}
        onConfirm={() => approve.mutate({ id: version.id, contentHash: version.contentHash, ...(note.trim() ? { note: note.trim() } : {}) })}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Patients will answer this version from now on, and its rules decide who is eligible, under your name and NPI. Your approval is bound to the content you
          reviewed (hash <ShortHash hash={version.contentHash} />).
        </p>
        {note.trim() && <p className="break-words">Note: “{note.trim()}”</p>}
      </ConfirmDialog>
    </div>
  );
}
