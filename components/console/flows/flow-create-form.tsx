'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton } from '../catalog/catalog-ui';
import { fieldMessage, FieldError } from '../ui/field-error';
import { QueryError } from '../ui/query-state';
import { starterDocument } from './starter-document';

const control =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';

/**
 * A new flow around one approved questionnaire: a landing page, every item of the questionnaire on one
 * medical page, consent, contact and an outcome, ready to rewrite in the editor. Without an approved
 * questionnaire, it says so and links to where one is written or approved.
 */
export function FlowCreateForm() {
  const id = useId();
  const trpc = useTRPC();
  const qc = useQueryClient();
  const router = useRouter();
  const questionnaires = useQuery(trpc.intake.questionnaireVersions.queryOptions({}));
  const approved = (questionnaires.data ?? []).filter((q) => q.status === 'approved');
  const pending = (questionnaires.data ?? []).find((q) => q.status === 'pending');
  const [name, setName] = useState('');
  const [key, setKey] = useState('');
  const chosen = approved.find((q) => q.key === key) ?? approved[0];
  const create = useMutation(
    trpc.flows.create.mutationOptions({
      onSuccess: async (flow) => {
        await qc.invalidateQueries({ queryKey: trpc.flows.list.queryKey() });
        router.push(`/flows/${flow.id}`);
      },
    }),
  );
  const nameError = fieldMessage(create.error, 'name');

  if (questionnaires.isError) return <QueryError error={questionnaires.error} title="The questionnaires could not be read." />;
  return (
    <form
      aria-label="Create a flow"
      className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        if (!chosen) return;
        create.mutate({ name: name.trim(), document: starterDocument({ key: chosen.key, title: chosen.title }, chosen.document.items.map((i) => i.linkId)) });
      }}
    >
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
          aria-invalid={!!nameError}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          className={control}
        />
        <FieldError id={`${id}-name-error`} message={nameError} />
      </div>
      <div>
        <label htmlFor={`${id}-questionnaire`} className="block text-sm font-medium text-slate-700">
          Approved questionnaire
        </label>
        <select id={`${id}-questionnaire`} value={chosen?.key ?? ''} onChange={(e) => setKey(e.target.value)} className={control} disabled={approved.length === 0}>
          {approved.length === 0 && <option value="">{questionnaires.isPending ? 'Loading…' : 'No approved questionnaire yet'}</option>}
          {approved.map((q) => (
            <option key={q.id} value={q.key}>
              {q.title} ({q.key} v{q.version})
            </option>
          ))}
        </select>
      </div>
      <BusyButton type="submit" busy={create.isPending} busyLabel="Creating…" disabled={!chosen}>
        Create flow
      </BusyButton>
      {questionnaires.isSuccess && approved.length === 0 && (
        <div data-testid="flow-create-needs" className="space-y-1 text-sm text-slate-700 sm:col-span-3">
          <p>
            A flow asks the medical questions of an approved questionnaire, and this mode has none yet
            {pending ? `: ${pending.title} (${pending.key} v${pending.version}) waits for a provider’s approval` : ''}.
          </p>
          <p className="flex flex-wrap gap-x-4 gap-y-1">
            {pending ? (
              <Link href="/intake/questionnaires/pending" className="font-medium text-indigo-700 underline">
                Questionnaires waiting for approval
              </Link>
            ) : (
              <Link href="/intake/questionnaires/new" className="font-medium text-indigo-700 underline">
                Write a questionnaire
              </Link>
            )}
            <Link href="/go-live" className="font-medium text-indigo-700 underline">
              The go-live checklist
            </Link>
          </p>
        </div>
      )}
      {create.isError && !nameError && (
        <div className="sm:col-span-3">
          <QueryError error={create.error} title="The flow was not created." />
        </div>
      )}
    </form>
  );
}
