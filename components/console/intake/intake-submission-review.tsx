'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BlockedReason } from '../ui/blocked-reason';
import { BusyButton } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import type { ConsoleSubmission } from './intake-submission-types';
import { useApprovalBlock } from '../orders/order-data';
import { OrderStatusBadge } from '../orders/order-ui';
import { QueryError } from '../ui/query-state';
import { approveBlock, decisionBlock } from './submission-blocks';

type Decision = 'approve' | 'reject';
type Reviewed = Pick<ConsoleSubmission, 'status' | 'orderId' | 'reviewedBy' | 'reviewedAt'>;

/**
 * Approve or reject, with a note (required to reject). Each button is disabled with the reason in words:
 * approve while a blocking flag stands (an identity to resolve) or the licence for the patient's state is
 * missing, reject only for the licence (the API checks it for both), and either for anyone the provider
 * check refuses (no provider, no second factor, unverified NPI).
 */
export function SubmissionReview({ s, isProvider, onDone }: { s: ConsoleSubmission; isProvider: boolean; onDone: (reviewed: Reviewed) => unknown }) {
  const trpc = useTRPC();
  const check = useApprovalBlock(s.patientState, isProvider);
  const approveReason = approveBlock(s) ?? check.reason;
  const rejectReason = decisionBlock(s) ?? check.reason;
  const [note, setNote] = useState('');
  const [confirming, setConfirming] = useState<Decision>();
  const [noteError, setNoteError] = useState<string>();
  const review = useMutation(
    trpc.intake.reviewSubmission.mutationOptions({
      onSuccess: (data) => {
        setConfirming(undefined);
        onDone(data);
      },
      onError: () => setConfirming(undefined),
    }),
  );
  const order = useQuery({ ...trpc.orders.getOrder.queryOptions({ id: review.data?.orderId ?? '' }), enabled: !!review.data?.orderId });
  const reasonId = `review-reason-${s.id}`;
  const noteId = `review-note-${s.id}`;
  if (review.data) {
    const approved = review.data.status === 'approved';
    return (
      <div role="status" data-testid="review-outcome" className="space-y-1 text-sm text-emerald-800">
        <p>{approved ? 'Approved: the order was created under your name and sent to the pharmacy.' : 'Rejected: the reason is kept on the submission.'}</p>
        {review.data.orderId && (
          <p className="flex flex-wrap items-center gap-2">
            <Link href={`/orders/${review.data.orderId}`} data-testid="review-order-link" className="font-medium text-indigo-700 underline">
              Order {review.data.orderId}
            </Link>
            {order.data && <OrderStatusBadge status={order.data.status} />}
          </p>
        )}
      </div>
    );
  }
  const ask = (d: Decision) => {
    if (d === 'reject' && !note.trim()) {
      setNoteError('Say why you are rejecting: the reason is kept on the submission.');
      return;
    }
    setNoteError(undefined);
    setConfirming(d);
  };
  return (
    <div className="space-y-3">
      {!rejectReason && (
        <div>
          <label htmlFor={noteId} className="block text-sm font-medium text-slate-700">Note (required to reject)</label>
          <textarea
            id={noteId}
            value={note}
            rows={2}
            maxLength={2000}
            aria-invalid={noteError ? true : undefined}
            aria-describedby={noteError ? `${noteId}-error` : undefined}
            onChange={(e) => setNote(e.target.value)}
            className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
          />
          {noteError && <p id={`${noteId}-error`} role="alert" className="mt-1 text-sm text-red-700">{noteError}</p>}
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <BusyButton busy={check.checking || (review.isPending && review.variables?.decision === 'approve')} busyLabel={check.checking ? 'Checking…' : 'Approving…'} disabled={!!approveReason} aria-describedby={approveReason ? reasonId : undefined} onClick={() => ask('approve')}>
          Approve
        </BusyButton>
        <BusyButton variant="danger" busy={review.isPending && review.variables?.decision === 'reject'} busyLabel="Rejecting…" disabled={!!rejectReason || check.checking} aria-describedby={rejectReason ? reasonId : undefined} onClick={() => ask('reject')}>
          Reject
        </BusyButton>
        {approveReason && <BlockedReason id={reasonId} reason={approveReason} testId="review-blocked-reason" />}
      </div>
      {review.isError && (
        <div data-testid="review-error">
          <QueryError error={review.error} title="The submission was not reviewed." />
        </div>
      )}
      <ConfirmDialog
        open={!!confirming}
        title={confirming === 'approve' ? 'Approve this submission?' : 'Reject this submission?'}
        confirmLabel={confirming === 'approve' ? 'Approve and order' : 'Reject submission'}
        tone={confirming === 'approve' ? 'primary' : 'danger'}
        busy={review.isPending}
        onConfirm={() => confirming && review.mutate({ id: s.id, decision: confirming, ...(note.trim() ? { note: note.trim() } : {}) })}
        onCancel={() => setConfirming(undefined)}
      >
        {confirming === 'approve' ? (
          <p>An order is created from the questionnaire’s protocol, approved under your name and NPI, and sent to the pharmacy at once.</p>
        ) : (
          <p>The patient gets no order; your reason is kept on the submission.</p>
        )}
        {note.trim() && <p className="break-words">Note: “{note.trim()}”</p>}
      </ConfirmDialog>
    </div>
  );
}
