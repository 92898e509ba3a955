'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';
import { StatusBadge } from '../catalog/catalog-ui';
import { TableScroll } from '../ui/data-table';
import { formatDateTime } from '../ui/format';
import { Loading, QueryError } from '../ui/query-state';
import { deliveryStatusWords } from '../ui/status-words';

/** The endpoint's last 50 deliveries, newest first; read when opened, refreshed after a test send. */
export function WebhookDeliveries({ endpointId }: { endpointId: string }) {
  const trpc = useTRPC();
  const deliveries = useQuery(trpc.webhooks.listWebhookDeliveries.queryOptions({ id: endpointId }));
  if (deliveries.isPending) return <Loading label="Loading deliveries…" />;
  if (deliveries.isError) return <QueryError error={deliveries.error} title="The delivery history could not be read." />;
  return (
    <TableScroll label="Delivery history">
      <table className="w-full text-left text-xs">
        <thead className="text-slate-500">
          <tr>
            <th className="px-3 py-2">Event</th>
            <th className="px-3 py-2">Status</th>
            <th className="px-3 py-2">Attempts</th>
            <th className="px-3 py-2">Response</th>
            <th className="px-3 py-2">Created</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.map((d) => (
            <tr key={d.id} data-testid="delivery-row" className="border-t border-slate-100 align-top">
              <td className="px-3 py-1.5 font-mono">{d.eventType}</td>
              <td className="px-3 py-1.5">
                <StatusBadge status={d.status} words={deliveryStatusWords} />
              </td>
              <td className="px-3 py-1.5">{d.attempts}</td>
              <td className="max-w-xs break-words px-3 py-1.5">{d.responseCode ?? d.lastError ?? '—'}</td>
              <td className="whitespace-nowrap px-3 py-1.5">{formatDateTime(d.createdAt)}</td>
            </tr>
          ))}
          {deliveries.data.length === 0 && (
            <tr>
              <td colSpan={5} className="px-3 py-2 text-slate-500">
                No deliveries yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </TableScroll>
  );
}
