'use client';

import { useMutation } from '@tanstack/react-query';
import { BlockedReason } from '../ui/blocked-reason';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useApprovalBlock, useOrdersChanged } from './order-data';
import type { ApprovedOrder } from './order-types';
import { OrderStatusBadge } from './order-ui';
import { QueryError } from '../ui/query-state';

function outcome(order: ApprovedOrder): string {
  if (order.status === 'rejected') return `Approved, but no pharmacy could take it (${order.rejectionReasonCode ?? 'rejected'}). Reroute it from the order page.`;
  if (order.status === 'submitting') return 'Approved; the pharmacy has not acknowledged it yet, and the dispatch will be retried. The order is now';
  return 'Approved and sent to the pharmacy. The order is now';
}

export interface ApprovalSubject {
  orderId: string;
  /** The patient's name, when this page may show it. */
  patient: string | null;
  /** The patient's shipping state: null without an address, undefined when this page cannot see the patient. */
  state: string | null | undefined;
  /** "Semaglutide 0.25 mg × 4", one per line. */
  items: string[];
}

/**
 * A provider's approval of one order, after a confirmation naming the patient and what is prescribed (an
 * approval sends the order to a pharmacy at once). When the person cannot approve it, the button is
 * disabled and the API's provider check says why; a refusal of the approval itself is shown as an alert.
 */
export function OrderApproveButton({ subject, onApproved }: { subject: ApprovalSubject; onApproved?: (order: ApprovedOrder) => void }) {
  const trpc = useTRPC();
  const changed = useOrdersChanged();
  const block = useApprovalBlock(subject.state);
  const [confirming, setConfirming] = useState(false);
  const approve = useMutation(
    trpc.orders.approveOrder.mutationOptions({
      onSuccess: (order) => {
        setConfirming(false);
        onApproved?.(order);
        return changed();
      },
      onError: () => setConfirming(false),
    }),
  );
  const reasonId = `approve-reason-${subject.orderId}`;

  if (approve.data) {
    return (
      <p role="status" data-testid="approve-outcome" className="flex flex-wrap items-center gap-2 text-sm text-emerald-800">
        {outcome(approve.data)}
        {approve.data.status !== 'rejected' && <OrderStatusBadge status={approve.data.status} testId="approved-status" />}
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <BusyButton
          busy={approve.isPending || block.checking}
          busyLabel={block.checking ? 'Checking…' : 'Approving…'}
          disabled={!!block.reason}
          onClick={() => setConfirming(true)}
          aria-describedby={block.reason ? reasonId : undefined}
        >
          Approve<span className="sr-only"> order {subject.orderId}</span>
        </BusyButton>
        {block.reason && <BlockedReason id={reasonId} reason={block.reason} testId="approve-blocked-reason" />}
      </div>
      {approve.isError && (
        <div data-testid="approve-error">
          <QueryError error={approve.error} title="The order was not approved." />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Approve this order${subject.patient ? ` for ${subject.patient}` : ''}?`}
        confirmLabel="Approve and send"
        tone="primary"
        busy={approve.isPending}
        onConfirm={() => approve.mutate({ id: subject.orderId })}
        onCancel={() => setConfirming(false)}
      >
        <p>It goes to the pharmacy at once, under your name and NPI.</p>
        <ul data-testid="approve-confirm-items" className="list-disc pl-5">
          {subject.items.map((line, i) => (
            <li key={i} className="break-words">{line}</li>
          ))}
        </ul>
      </ConfirmDialog>
    </div>
  );
}
