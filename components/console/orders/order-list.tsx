'use client';

import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, SelectField } from '../catalog/catalog-ui';
import { TableScroll } from '../ui/data-table';
import { formatDateTime } from '../ui/format';
import { isInFlight, ORDER_PAGE_SIZE, ORDER_STATUS_LIST, POLL_MS, type ListedOrder, type OrderStatus } from './order-types';
import { fullName, Named, OrderStatusBadge } from './order-ui';
import { capitalized, orderStatusWords } from '../ui/status-words';
import { Loading, QueryError } from '../ui/query-state';

type Pharmacies = Map<string, string>;

function Row({ o, pharmacies, readsPatients }: { o: ListedOrder; pharmacies: Pharmacies; readsPatients: boolean }) {
  const pharmacy = o.pharmacyConnectionId;
  return (
    <tr data-testid="order-row" data-order-id={o.id} className="border-t border-slate-100 align-top">
      <td className="px-4 py-2">
        <Link href={`/orders/${o.id}`} prefetch={false} className="font-mono font-medium whitespace-nowrap text-indigo-700 hover:underline">{o.id}</Link>
      </td>
      <td className="px-4 py-2"><OrderStatusBadge status={o.status} /></td>
      <td className="px-4 py-2" data-testid="order-row-patient">
        {o.patient ? (
          <Named id={o.patient.id} name={fullName(o.patient)} href={`/patients/${o.patient.id}`} />
        ) : o.patientId ? (
          <span className="text-slate-500">{readsPatients ? 'Unknown patient' : 'Not shown to your role'}</span>
        ) : (
          <span className="text-slate-500">No patient yet</span>
        )}
      </td>
      <td className="px-4 py-2">{pharmacy ? <Named id={pharmacy} name={pharmacies.get(pharmacy)} /> : '—'}</td>
      <td className="px-4 py-2 whitespace-nowrap">{formatDateTime(o.createdAt)}</td>
    </tr>
  );
}

/**
 * Orders newest first, filtered by status (kept in the URL as ?status=), a page at a time: "Load more"
 * adds the page after the last order shown. Each page is read again every two seconds while one of its
 * orders is in flight, so statuses change on screen as the pharmacy reports them.
 */
export function OrderList({ status, mode, readsPatients, readsPharmacies }: { status?: OrderStatus; mode: string; readsPatients: boolean; readsPharmacies: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  // Cursors of the pages after the first (the id of the last order of the page before).
  const [cursors, setCursors] = useState<string[]>([]);
  const inputs = [undefined, ...cursors].map((startingAfter) => ({ status, limit: ORDER_PAGE_SIZE, starting_after: startingAfter }));
  const pages = useQueries({ queries: inputs.map((input) => trpc.orders.ordersWithNames.queryOptions(input)) });
  const pharmacyList = useQuery({ ...trpc.pharmacies.listPharmacies.queryOptions({}), enabled: readsPharmacies });
  const pharmacies: Pharmacies = new Map((pharmacyList.data ?? []).map((p) => [p.id, p.name]));
  const seen = new Set<string>();
  const shown = pages
    .flatMap((p) => p.data ?? [])
    .filter((o) => !seen.has(o.id) && !!seen.add(o.id));
  // While orders shown are in flight, they are polled without their patients (no PHI, no access-log
  // entries); the pages, names and all, are read again only when the poll sees one of them changed.
  const flying = shown.filter((o) => isInFlight(o.status)).map((o) => o.id);
  const poll = useQuery({ ...trpc.orders.statuses.queryOptions({ ids: flying }), enabled: flying.length > 0, refetchInterval: POLL_MS });
  const qc = useQueryClient();
  // The changes the poll saw, as one string, so each new change triggers one re-read.
  const moved = (poll.data ?? [])
    .filter((f) => shown.some((o) => o.id === f.id && o.updatedAt !== f.updatedAt))
    .map((f) => `${f.id}@${f.updatedAt}`)
    .join(',');
  useEffect(() => {
    if (moved) void qc.invalidateQueries({ queryKey: trpc.orders.ordersWithNames.queryKey() });
  }, [moved, qc, trpc]);
  const last = pages[pages.length - 1];
  const failed = pages.find((p) => p.isError);
  const hasMore = last.data?.length === ORDER_PAGE_SIZE;

  return (
    <div className="space-y-4">
      <div className="max-w-xs">
        <SelectField label="Status" value={status ?? ''} onChange={(e) => router.push(e.target.value ? `/orders?${new URLSearchParams({ status: e.target.value })}` : '/orders')}>
          <option value="">All statuses</option>
          {ORDER_STATUS_LIST.map((s) => (
            <option key={s} value={s}>{capitalized(orderStatusWords(s))}</option>
          ))}
        </SelectField>
      </div>
      {pages[0].isPending ? (
        <Loading label="Loading orders…" />
      ) : (
        <TableScroll label="Orders">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Orders</caption>
            <thead className="text-xs text-slate-500 uppercase">
              <tr><th className="px-4 py-2">Order</th><th className="px-4 py-2">Status</th><th className="px-4 py-2">Patient</th><th className="px-4 py-2">Pharmacy</th><th className="px-4 py-2">Created</th></tr>
            </thead>
            <tbody>
              {shown.map((o) => (
                <Row key={o.id} o={o} pharmacies={pharmacies} readsPatients={readsPatients} />
              ))}
              {pages[0].data?.length === 0 && (
                <tr><td colSpan={5} className="px-4 py-3 text-slate-500">{status ? `No orders ${orderStatusWords(status)} in ${mode}.` : `No orders in ${mode} yet.`}</td></tr>
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
      {failed && <QueryError error={failed.error} title="Orders could not be loaded." />}
      {hasMore && (
        <BusyButton variant="secondary" onClick={() => setCursors((c) => [...c, shown[shown.length - 1].id])}>Load more</BusyButton>
      )}
      {pages.length > 1 && last.isPending && <Loading label="Loading more orders…" />}
    </div>
  );
}
