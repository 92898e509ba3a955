'use client';

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton } from '../catalog/catalog-ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { useOrdersChanged } from './order-data';
import { errorParam, QueryError } from '../ui/query-state';

/**
 * A provider declines an order waiting for approval, with a reason: the order is cancelled and the reason
 * kept on its timeline (only people who may read patients see it). The API refuses anyone but a provider;
 * its message is shown next to the reason, or above the buttons for any other refusal.
 */
export function OrderDeclineButton({ orderId, patient, onDeclined }: { orderId: string; patient: string | null; onDeclined?: () => void }) {
  const trpc = useTRPC();
  const changed = useOrdersChanged();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const decline = useMutation(
    trpc.orders.declineOrder.mutationOptions({
      onSuccess: () => {
        setOpen(false);
        onDeclined?.();
        return changed();
      },
    }),
  );
  const fieldId = `decline-reason-${orderId}`;
  const onField = decline.isError && errorParam(decline.error) === 'reason';

  if (decline.data) {
    return (
      <p role="status" data-testid="decline-outcome" className="text-sm text-slate-700">
        Declined: the order is cancelled, and your reason is on its timeline.
      </p>
    );
  }
  return (
    <>
      <BusyButton variant="danger" onClick={() => setOpen(true)}>
        Decline<span className="sr-only"> order {orderId}</span>
      </BusyButton>
      <ConfirmDialog
        open={open}
        title={`Decline this order${patient ? ` for ${patient}` : ''}?`}
        confirmLabel="Decline order"
        busy={decline.isPending}
        onConfirm={() => decline.mutate({ id: orderId, reason })}
        onCancel={() => {
          setOpen(false);
          decline.reset();
        }}
      >
        <p>The order is cancelled and will not be sent to a pharmacy. The clinic sees your reason on the order&apos;s timeline.</p>
        <label htmlFor={fieldId} className="block font-medium text-slate-700">
          Reason for declining
        </label>
        <textarea
          id={fieldId}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          rows={3}
          maxLength={1000}
          aria-invalid={onField || undefined}
          aria-describedby={onField ? `${fieldId}-error` : undefined}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
        />
        {decline.isError && (
          <div id={`${fieldId}-error`} data-testid="decline-error">
            <QueryError error={decline.error} />
          </div>
        )}
      </ConfirmDialog>
    </>
  );
}
