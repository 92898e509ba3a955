'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { card } from '../catalog/catalog-ui';
import { CopyButton } from '../ui/copy-button';
import { ageOf, formatDateTime } from '../ui/format';
import { APPROVAL_RETURN_WORDS } from '../ui/status-words';
import { OrderApproveButton } from './order-approve-button';
import { OrderDeclineButton } from './order-decline-button';
import type { QueuedOrder } from './order-types';
import { fullName, OrderStatusBadge, productLabel } from './order-ui';
import { Loading, QueryError } from '../ui/query-state';

export const QUEUE_SIZE = 50;

const lineLabel = (l: QueuedOrder['prescriptions'][number]) => `${productLabel(l)} × ${l.quantity}`;

function QueueRow({ order, isProvider, readsPatients, onHandled }: { order: QueuedOrder; isProvider: boolean; readsPatients: boolean; onHandled: () => void }) {
  const p = order.patient;
  const patient = p ? fullName(p) : null;
  // Once one of the two is done, the other no longer applies to the order.
  const [done, setDone] = useState<'approved' | 'declined'>();
  const handle = (what: 'approved' | 'declined') => () => {
    setDone(what);
    onHandled();
  };
  return (
    <li data-testid="approval-row" data-order-id={order.id} className={`${card} min-w-0 space-y-3 text-sm`}>
      <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
        <p data-testid="approval-patient" className="min-w-0 text-base break-words">
          {p ? (
            <>
              <Link href={`/patients/${p.id}`} prefetch={false} className="font-semibold text-indigo-700 hover:underline">{patient}</Link> · {ageOf(p.dateOfBirth)} · {p.state ?? 'no shipping address'} · born {p.dateOfBirth}
            </>
          ) : readsPatients ? (
            'Unknown patient'
          ) : (
            'Not shown to your role'
          )}
        </p>
        <span className="flex flex-wrap items-center gap-2 sm:ml-auto">
          <OrderStatusBadge status={order.status} />
          {order.priority === 'urgent' && <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">urgent</span>}
        </span>
      </div>
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
        <span>Order</span>
        <Link href={`/orders/${order.id}`} prefetch={false} className="font-mono break-all text-indigo-700 hover:underline">{order.id}</Link>
        <CopyButton value={order.id} label={`Copy ${order.id}`} />
        <span>· waiting since {formatDateTime(order.createdAt)}</span>
      </p>
      {order.returnedBecause && (
        <p data-testid="approval-returned" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          Back for a new approval: {APPROVAL_RETURN_WORDS[order.returnedBecause] ?? order.returnedBecause} <span className="font-mono text-xs">({order.returnedBecause})</span>
        </p>
      )}
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-500">Prescriptions</dt>
        <dd className="min-w-0">
          <ul className="space-y-0.5">
            {order.prescriptions.map((l, i) => (
              <li key={i} className="break-words">
                <span className="font-medium">{productLabel(l)}</span> × {l.quantity} · {l.sig} · {l.refills} refill{l.refills === 1 ? '' : 's'}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      <div className="flex flex-wrap items-start gap-3">
        {done !== 'declined' && (
          <OrderApproveButton
            subject={{ orderId: order.id, patient, state: p ? p.state : undefined, items: order.prescriptions.map((l) => `${lineLabel(l)} · ${l.sig}`) }}
            onApproved={handle('approved')}
          />
        )}
        {isProvider && done !== 'approved' && <OrderDeclineButton orderId={order.id} patient={patient} onDeclined={handle('declined')} />}
      </div>
    </li>
  );
}

/**
 * The orders waiting for a provider, oldest first, with how many wait. Rows approved or declined here stay
 * until the queue is read again (their outcome stays on screen); the queue re-reads itself every 30 s.
 */
export function OrderApprovalQueue({ mode, isProvider, readsPatients }: { mode: string; isProvider: boolean; readsPatients: boolean }) {
  const trpc = useTRPC();
  const queue = useQuery({ ...trpc.orders.approvalQueue.queryOptions({ limit: QUEUE_SIZE }), refetchInterval: 30_000 });
  // Rows approved or declined here, kept on screen with their outcome after the queue no longer lists them.
  const [handled, setHandled] = useState<QueuedOrder[]>([]);
  if (queue.isPending) return <Loading label="Loading the approval queue…" />;
  if (queue.isError) return <QueryError error={queue.error} title="The approval queue could not be read." />;
  const { waiting, orders } = queue.data;
  const oldest = orders[0];
  const rows = [...orders, ...handled.filter((h) => !orders.some((o) => o.id === h.id))].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  return (
    <div className="space-y-4">
      <p data-testid="queue-summary" className="text-sm text-slate-700">
        {waiting === 0 ? (
          `No orders are waiting for approval in ${mode}.`
        ) : (
          <>
            <span className="font-semibold">{waiting}</span> {waiting === 1 ? 'order waits' : 'orders wait'} for approval
            {oldest && <>, the oldest since {formatDateTime(oldest.createdAt)}</>}.
          </>
        )}
      </p>
      <ul className="space-y-4">
        {rows.map((o) => (
          <QueueRow key={o.id} order={o} isProvider={isProvider} readsPatients={readsPatients} onHandled={() => setHandled((h) => [...h, o])} />
        ))}
      </ul>
      {waiting > orders.length && (
        <p className="text-sm text-slate-600">
          Showing the {orders.length} oldest.{' '}
          <Link href="/orders?status=pending_approval" className="font-medium text-indigo-700 hover:underline">All orders pending approval</Link>
        </p>
      )}
    </div>
  );
}

