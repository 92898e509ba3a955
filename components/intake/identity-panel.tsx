'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { BusyButton, card } from '@/components/console/catalog/catalog-ui';
import { ConfirmDialog } from '@/components/console/ui/confirm-dialog';
import { formatDateTime } from '@/components/console/ui/format';
import { QueryError } from '@/components/console/ui/query-state';
import { HELD_SUBMISSION } from '@/components/console/intake/submission-query';
import { useTRPC } from '@/web/trpc/client';
import { factDiffers, recordedFact, type IdentityRecord } from './identity-compare';

type Choice = 'existing' | 'new';
type Person = IdentityRecord;

const ROWS: { key: keyof Person; label: string; flag?: string }[] = [
  { key: 'name', label: 'Name', flag: 'lastName' },
  { key: 'dateOfBirth', label: 'Date of birth', flag: 'dateOfBirth' },
  { key: 'sexAtBirth', label: 'Sex at birth', flag: 'sexAtBirth' },
  { key: 'state', label: 'State' },
  { key: 'email', label: 'E-mail' },
];

function FactCell({ row, value, marked }: { row: keyof Person; value: string | null; marked: boolean }) {
  const shown = recordedFact(row, value);
  if (shown === null) return <td className="py-2 pr-2 align-top text-slate-600 italic">Not recorded</td>;
  return <td className={`py-2 pr-2 align-top break-words ${marked ? 'font-semibold text-slate-900' : ''}`}>{shown}</td>;
}
const CHOICE_TEXT: Record<Choice, string> = { existing: 'Keep the existing patient', new: 'Create a new patient' };

/**
 * A submission whose e-mail matched a patient with a different date of birth, sex at birth or last name
 * (DESIGN decision 32): the patient on file and the person who submitted, side by side, the differing facts
 * marked, and the two ways out. Approval stays refused until one is chosen; neither changes the record on file.
 * Showing the two records is a read of both, recorded in the access log by the server.
 */
export function IdentityPanel({ id }: { id: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const view = useQuery({ ...trpc.intake.submissionForReview.queryOptions({ id }), ...HELD_SUBMISSION });
  const [confirming, setConfirming] = useState<Choice>();
  const resolve = useMutation(
    trpc.intake.resolveIdentity.mutationOptions({
      onSuccess: () => {
        setConfirming(undefined);
        return Promise.all([qc.invalidateQueries({ queryKey: trpc.intake.submissionForReview.queryKey() }), qc.invalidateQueries({ queryKey: trpc.intake.reviewQueue.queryKey() })]);
      },
      onError: () => setConfirming(undefined),
    }),
  );
  const identity = view.data?.identity;
  if (!identity) return null;
  const differs = (row: (typeof ROWS)[number]) => factDiffers(row.key, identity.existing[row.key], identity.submitted[row.key]);
  const open = identity.status === 'mismatch';

  return (
    <section aria-labelledby={`identity-${id}`} data-testid="identity-panel" className={`${card} space-y-4 text-sm ${open ? 'border-amber-500' : ''}`}>
      <div className="space-y-1">
        <h2 id={`identity-${id}`} className="text-lg font-semibold">
          {open ? 'Is this the same person?' : 'Patient match resolved'}
        </h2>
        {open ? (
          <p className="text-slate-700">
            The e-mail address matches a patient on file, but their {identity.fields.map((f) => ROWS.find((r) => r.flag === f)?.label.toLowerCase() ?? f).join(', ')}{' '}
            {identity.fields.length === 1 ? 'differs' : 'differ'}. Nothing was changed on the patient’s record. Decide who this is before approving.
          </p>
        ) : (
          <p role="status" data-testid="identity-resolved" className="text-emerald-800">
            {identity.resolution === 'new' ? 'A new patient was created from this submission.' : 'The submission stays with the existing patient.'}
            {identity.resolvedAt && <> Decided {formatDateTime(identity.resolvedAt)}.</>}
          </p>
        )}
      </div>
      <div className="overflow-x-auto">
        <table className="w-full table-fixed border-collapse text-left">
          <caption className="sr-only">The patient on file and the person who submitted, side by side; a fact both recorded differently is marked as differing.</caption>
          <thead>
            <tr className="border-b border-slate-200 text-xs text-slate-500 uppercase">
              <th scope="col" className="w-1/4 py-2 pr-2 font-medium">Fact</th>
              <th scope="col" className="py-2 pr-2 font-medium">Patient on file</th>
              <th scope="col" className="py-2 font-medium">This submission</th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => {
              const marked = differs(row);
              return (
                <tr key={row.key} data-testid={`identity-row-${row.key}`} data-differs={marked || undefined} className={`border-b border-slate-100 ${marked ? 'bg-amber-50' : ''}`}>
                  <th scope="row" className="py-2 pr-2 align-top font-medium text-slate-700">
                    {row.label}
                    {marked && <span className="ml-1 block text-xs font-semibold text-amber-800">Differs</span>}
                  </th>
                  <FactCell row={row.key} value={identity.existing[row.key]} marked={marked} />
                  <FactCell row={row.key} value={identity.submitted[row.key]} marked={marked} />
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {open && (
        <div className="flex flex-wrap gap-3">
          <BusyButton variant="secondary" busy={resolve.isPending && resolve.variables?.patient === 'existing'} busyLabel="Saving…" onClick={() => setConfirming('existing')}>
            {CHOICE_TEXT.existing}
          </BusyButton>
          <BusyButton variant="secondary" busy={resolve.isPending && resolve.variables?.patient === 'new'} busyLabel="Saving…" onClick={() => setConfirming('new')}>
            {CHOICE_TEXT.new}
          </BusyButton>
        </div>
      )}
      {resolve.isError && <QueryError error={resolve.error} title="The patient match was not resolved." />}
      <ConfirmDialog
        open={!!confirming}
        title={confirming ? `${CHOICE_TEXT[confirming]}?` : ''}
        confirmLabel={confirming ? CHOICE_TEXT[confirming] : ''}
        tone="primary"
        busy={resolve.isPending}
        onConfirm={() => confirming && resolve.mutate({ id, patient: confirming })}
        onCancel={() => setConfirming(undefined)}
      >
        {confirming === 'new' ? (
          <p>A new patient is created from what was submitted, and this submission moves to them. The patient on file is not changed.</p>
        ) : (
          <p>This submission stays with the patient on file, whose record is not changed. Only do this if you are sure it is the same person.</p>
        )}
      </ConfirmDialog>
    </section>
  );
}
