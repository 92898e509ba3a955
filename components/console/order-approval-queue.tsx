'use client';

import Link from 'next/link';
import { useState } from 'react';
import { card, formatWhen } from './catalog-ui';
import { OrderApproveButton } from './order-approve-button';
import type { Order, OrderPrescription } from './order-types';
import { OrderStatusBadge, productLabel } from './order-ui';

export interface QueueEntry {
  order: Order;
  /** PHI, only for people who may read patients; null when the order detail could not be read. */
  patient: { name: string; dateOfBirth: string; state: string | null } | null;
  prescriptions: OrderPrescription[] | null;
  blockedReason: string | null;
}

function QueueRow({ entry, token, mode }: { entry: QueueEntry; token: string; mode: string }) {
  const [order, setOrder] = useState(entry.order);
  const lines = entry.prescriptions ?? order.items;
  return (
    <li data-testid="approval-row" data-order-id={order.id} className={`${card} space-y-3 text-sm`}>
      <div className="flex flex-wrap items-center gap-3">
        <Link href={`/orders/${order.id}`} prefetch={false} className="font-mono font-medium text-indigo-700 hover:underline">
          {order.id}
        </Link>
        <OrderStatusBadge status={order.status} />
        {order.priority === 'urgent' && <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">urgent</span>}
        <span className="ml-auto text-slate-500">Created {formatWhen(order.createdAt)}</span>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-500">Patient</dt>
        <dd data-testid="approval-patient">
          {entry.patient ? (
            <>
              {entry.patient.name} · born {entry.patient.dateOfBirth} · {entry.patient.state ?? 'no shipping address'}
            </>
          ) : (
            <span className="font-mono">{order.patientId ?? '—'}</span>
          )}
        </dd>
        <dt className="font-medium text-slate-500">Prescriptions</dt>
        <dd>
          <ul className="space-y-0.5">
            {lines.map((l, i) => (
              <li key={i}>
                <span className="font-medium">{productLabel(l)}</span> × {l.quantity} · {l.sig} · {l.refills} refill{l.refills === 1 ? '' : 's'}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
      {entry.order.status === 'pending_approval' && (
        <OrderApproveButton orderId={order.id} blockedReason={entry.blockedReason} token={token} mode={mode} onApproved={setOrder} />
      )}
    </li>
  );
}

/** The orders waiting for a provider. An approved row stays, showing what became of the order. */
export function OrderApprovalQueue({ entries, token, mode }: { entries: QueueEntry[]; token: string; mode: string }) {
  return (
    <ul className="space-y-4">
      {entries.map((e) => (
        <QueueRow key={e.order.id} entry={e} token={token} mode={mode} />
      ))}
      {entries.length === 0 && <li className="text-sm text-slate-500">No orders are waiting for approval in {mode}.</li>}
    </ul>
  );
}
