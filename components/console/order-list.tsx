'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import { BusyButton, ErrorAlert, formatWhen, SelectField, tableHead, type ApiErrorBody } from './catalog-ui';
import { ORDER_PAGE_SIZE, ORDER_STATUS_LIST, type Order, type OrderStatus } from './order-types';
import { OrderStatusBadge } from './order-ui';

/**
 * Orders newest first, filtered by status (kept in the URL as ?status=), a page at a time. The first page
 * comes from the server; "Load more" fetches the next ones after the last id shown.
 */
export function OrderList({
  orders,
  status,
  pharmacyNames,
  token,
  mode,
}: {
  orders: Order[];
  status?: OrderStatus;
  pharmacyNames: Record<string, string>;
  token: string;
  mode: string;
}) {
  const router = useRouter();
  const [more, setMore] = useState<Order[]>([]);
  const [lastPageFull, setLastPageFull] = useState<boolean>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  // The first page is the server's (fresh after a refresh); later pages are kept here, without repeats.
  const shown = [...orders, ...more.filter((o) => !orders.some((f) => f.id === o.id))];
  const hasMore = lastPageFull ?? orders.length === ORDER_PAGE_SIZE;

  function filter(next: string) {
    router.push(next ? `/orders?${new URLSearchParams({ status: next })}` : '/orders');
  }

  async function loadMore() {
    const last = shown[shown.length - 1];
    if (!last) return;
    setBusy(true);
    const q = new URLSearchParams({ limit: String(ORDER_PAGE_SIZE), starting_after: last.id });
    if (status) q.set('status', status);
    const res = await apiCall<Order[]>('GET', `/orders?${q}`, undefined, { token, mode });
    setBusy(false);
    if (!res.ok) return setError(res.error ?? { message: 'More orders could not be loaded.' });
    setError(undefined);
    setMore((m) => [...m, ...res.data]);
    setLastPageFull(res.data.length === ORDER_PAGE_SIZE);
  }

  return (
    <div className="space-y-4">
      <div className="max-w-xs">
        <SelectField label="Status" value={status ?? ''} onChange={(e) => filter(e.target.value)}>
          <option value="">All statuses</option>
          {ORDER_STATUS_LIST.map((s) => (
            <option key={s} value={s}>{s}</option>
          ))}
        </SelectField>
      </div>
      <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
        <caption className="sr-only">Orders</caption>
        <thead className={tableHead}>
          <tr><th className="px-4 py-2">Order</th><th>Status</th><th>Patient</th><th>Pharmacy</th><th>Created</th></tr>
        </thead>
        <tbody>
          {shown.map((o) => (
            <tr key={o.id} data-testid="order-row" data-order-id={o.id} className="border-t border-slate-100">
              <td className="px-4 py-2">
                <Link href={`/orders/${o.id}`} prefetch={false} className="font-mono font-medium text-indigo-700 hover:underline">{o.id}</Link>
              </td>
              <td><OrderStatusBadge status={o.status} /></td>
              <td className="font-mono text-xs">{o.patientId ?? '—'}</td>
              <td>{o.pharmacyConnectionId ? (pharmacyNames[o.pharmacyConnectionId] ?? <span className="font-mono text-xs">{o.pharmacyConnectionId}</span>) : '—'}</td>
              <td>{formatWhen(o.createdAt)}</td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr><td colSpan={5} className="px-4 py-3 text-slate-500">{status ? `No ${status} orders in ${mode}.` : `No orders in ${mode} yet.`}</td></tr>
          )}
        </tbody>
      </table>
      {error && <ErrorAlert error={error} />}
      {hasMore && (
        <BusyButton variant="secondary" busy={busy} busyLabel="Loading…" onClick={loadMore}>Load more</BusyButton>
      )}
    </div>
  );
}
