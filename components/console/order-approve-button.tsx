'use client';

import Link from 'next/link';
import { useState } from 'react';
import { apiCall } from './api-client';
import { BusyButton, ErrorAlert, type ApiErrorBody } from './catalog-ui';
import type { Order } from './order-types';
import { OrderStatusBadge } from './order-ui';

function outcome(order: Order): string {
  if (order.status === 'rejected') return `Approved, but no pharmacy could take it (${order.rejectionReasonCode ?? 'rejected'}). Reroute it from the order page.`;
  if (order.status === 'submitting') return 'Approved; the pharmacy has not acknowledged it yet, and the dispatch will be retried. The order is now';
  return 'Approved and sent to the pharmacy. The order is now';
}

/**
 * A provider's approval of one order. When the signed-in person cannot approve it (`blockedReason`, worked
 * out by the page from their session and the patient's state) the button is disabled and says why; the
 * API's own refusal (e.g. the monthly order cap) is shown as an alert.
 */
export function OrderApproveButton({
  orderId,
  blockedReason,
  token,
  mode,
  onApproved,
}: {
  orderId: string;
  blockedReason: string | null;
  token: string;
  mode: string;
  onApproved?: (order: Order) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [approved, setApproved] = useState<Order>();
  const reasonId = `approve-reason-${orderId}`;

  async function approve() {
    setBusy(true);
    const res = await apiCall<Order>('POST', `/orders/${encodeURIComponent(orderId)}/approve`, {}, { token, mode });
    setBusy(false);
    if (!res.ok) return setError(res.error ?? { message: 'The order could not be approved.' });
    setError(undefined);
    setApproved(res.data);
    onApproved?.(res.data);
  }

  if (approved) {
    return (
      <p role="status" data-testid="approve-outcome" className="flex flex-wrap items-center gap-2 text-sm text-emerald-800">
        {outcome(approved)}
        {approved.status !== 'rejected' && <OrderStatusBadge status={approved.status} testId="approved-status" />}
      </p>
    );
  }
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <BusyButton busy={busy} busyLabel="Approving…" disabled={!!blockedReason} onClick={approve} aria-describedby={blockedReason ? reasonId : undefined}>
          Approve<span className="sr-only"> order {orderId}</span>
        </BusyButton>
        {blockedReason && (
          <span id={reasonId} data-testid="approve-blocked-reason" className="text-sm text-slate-600">
            {blockedReason}
            {blockedReason.startsWith('Enable two-factor') && (
              <>
                {' '}
                <Link href="/account" className="font-medium text-indigo-700 hover:underline">Set it up in Account</Link>
              </>
            )}
          </span>
        )}
      </div>
      {error && <ErrorAlert error={error} testId="approve-error" />}
    </div>
  );
}
