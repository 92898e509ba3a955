'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { CopyButton } from '../ui/copy-button';
import { OrderActions } from './order-actions';
import { useNames } from './order-data';
import { OrderFacts, OrderNotices, OrderPatient, OrderPharmacy, OrderPrescriptions, OrderShipmentCard, OrderTimeline } from './order-detail';
import { isInFlight, POLL_MS } from './order-types';
import { fullName, OrderStatusBadge } from './order-ui';
import { Loading, QueryError } from '../ui/query-state';

/**
 * One order's page. While the order is in flight (approved up to shipped) it is read again every two
 * seconds, so the pharmacy's answers appear without a reload; once it settles, polling stops.
 */
export function OrderView({ id, canWrite, isProvider, readsPatients, readsPharmacies }: {
  id: string;
  canWrite: boolean;
  isProvider: boolean;
  readsPatients: boolean;
  readsPharmacies: boolean;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const order = useQuery(trpc.orders.getOrder.queryOptions({ id }));
  // The poll reads the order without its patient (no PHI, no access-log entry); the full order is read
  // again only when the poll sees it changed.
  const poll = useQuery({ ...trpc.orders.statuses.queryOptions({ ids: [id] }), enabled: isInFlight(order.data?.status), refetchInterval: POLL_MS });
  const changedAt = poll.data?.[0]?.updatedAt;
  const shownAt = order.data?.updatedAt;
  useEffect(() => {
    if (changedAt && shownAt && changedAt !== shownAt) void qc.invalidateQueries({ queryKey: trpc.orders.getOrder.queryKey({ id }) });
  }, [changedAt, shownAt, id, qc, trpc]);
  const rejected = order.data?.status === 'rejected';
  const pharmacies = useQuery({ ...trpc.pharmacies.listPharmacies.queryOptions({}), enabled: rejected && canWrite && readsPharmacies });
  const names = useNames([order.data?.approvedBy, ...(order.data?.timeline ?? []).map((t) => t.actorId)]);
  // What the patient was told: read again while a notice is still being sent, and whenever the order changes.
  const notices = useQuery({
    ...trpc.orders.listOrderNotices.queryOptions({ id }),
    enabled: order.isSuccess,
    refetchInterval: (q) => (q.state.data?.some((n) => n.status === 'pending') ? POLL_MS : false),
  });
  useEffect(() => {
    if (shownAt) void qc.invalidateQueries({ queryKey: trpc.orders.listOrderNotices.queryKey({ id }) });
  }, [shownAt, id, qc, trpc]);
  if (order.isPending) return <Loading label="Loading the order…" />;
  if (order.isError) return <QueryError error={order.error} title="This order could not be read." />;
  const o = order.data;
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h1 data-testid="order-title" className="text-xl font-semibold break-words sm:text-2xl">{o.patient ? `Order for ${fullName(o.patient)}` : 'Order'}</h1>
        <span className="inline-flex items-center gap-1">
          <code className="font-mono text-xs break-all text-slate-500">{o.id}</code>
          <CopyButton value={o.id} label="Copy order id" />
        </span>
        <OrderStatusBadge status={o.status} />
        {o.priority === 'urgent' && <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">urgent</span>}
        {isInFlight(o.status) && (
          <span className="text-xs text-slate-500" aria-live="polite">
            Updating as the pharmacy reports{poll.isFetching ? '…' : ''}
          </span>
        )}
      </div>
      <OrderActions
        order={o}
        canWrite={canWrite}
        isProvider={isProvider}
        readsPatients={readsPatients}
        pharmacies={pharmacies.data ? pharmacies.data.filter((p) => p.status === 'enabled').map((p) => ({ id: p.id, name: p.name })) : null}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <OrderFacts order={o} names={names} />
        <OrderPatient order={o} readsPatients={readsPatients} />
        <OrderPharmacy order={o} />
        <OrderShipmentCard order={o} />
      </div>
      <OrderPrescriptions order={o} />
      <OrderTimeline order={o} names={names} />
      <OrderNotices notices={notices.data} />
    </>
  );
}
