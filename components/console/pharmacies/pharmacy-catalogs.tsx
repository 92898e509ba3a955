'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal, FieldMessage } from '../catalog/catalog-errors';
import type { Catalog } from '../catalog/catalog-types';
import { BusyButton, formatCents, formatDays, StatusBadge, tableHead } from '../catalog/catalog-ui';
import { TableScroll } from '../ui/data-table';
import { Field } from '../ui/field';
import { IdChip } from '../ui/copy-button';
import { formatDateTime } from '../ui/format';
import { useNames } from '../orders/order-data';
import { catalogsInput, type Pharmacy } from './pharmacy-types';
import { Loading, QueryError } from '../ui/query-state';

export function PharmacyCatalogs({ pharmacy }: { pharmacy: Pharmacy }) {
  const trpc = useTRPC();
  const catalogs = useQuery(trpc.catalogs.listCatalogs.queryOptions(catalogsInput(pharmacy.id)));
  return (
    <div className="mt-4 space-y-2">
      <h4 className="font-medium text-slate-800">Catalogs</h4>
      {catalogs.isPending && <Loading label="Loading catalogs…" />}
      {catalogs.isError && <QueryError error={catalogs.error} title="The catalogs could not be read." />}
      {catalogs.data && (
        <TableScroll label={`Catalogs of ${pharmacy.name}`}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Catalogs of {pharmacy.name}</caption>
            <thead className={tableHead}>
              <tr>
                <th className="px-3 py-2">Catalog</th>
                <th className="px-3 py-2">Source</th>
                <th className="px-3 py-2">Status</th>
                <th className="px-3 py-2">Lines</th>
                <th className="px-3 py-2">Created</th>
                <th className="px-3 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody>
              {catalogs.data.map((c) => (
                <CatalogRow key={c.id} catalog={c} />
              ))}
              {catalogs.data.length === 0 && (
                <tr>
                  <td colSpan={6} className="px-3 py-2 text-slate-500">No catalogs yet: upload a CSV or sync from the pharmacy.</td>
                </tr>
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
    </div>
  );
}

function CatalogRow({ catalog }: { catalog: Catalog }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [showLines, setShowLines] = useState(false);
  const names = useNames([catalog.reviewedBy]);
  const pending = catalog.status === 'pending';
  const reviewed = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: trpc.catalogs.listCatalogs.queryKey() }),
      // Approving changes the connection's approved catalog.
      qc.invalidateQueries({ queryKey: trpc.pharmacies.listPharmacies.queryKey() }),
    ]);
  const approve = useMutation(trpc.catalogs.approveCatalog.mutationOptions({ onSuccess: reviewed }));
  const reject = useMutation(
    trpc.catalogs.rejectCatalog.mutationOptions({
      onSuccess: () => {
        setRejecting(false);
        return reviewed();
      },
    }),
  );
  const lines = useQuery({ ...trpc.catalogs.getCatalog.queryOptions({ id: catalog.id }), enabled: showLines });
  const error = approve.error ?? (reject.error && !reject.error.data?.param ? reject.error : null) ?? lines.error;

  return (
    <Fragment>
      <tr data-testid="catalog-row" data-catalog-id={catalog.id} className="border-t border-slate-100 align-top">
        <td className="px-3 py-2">
          <span className="block font-medium whitespace-nowrap">{catalog.source === 'upload' ? 'Uploaded' : 'Synced'} price list</span>
          <IdChip id={catalog.id} />
          {catalog.reviewedBy && (
            <span data-testid="catalog-reviewed-by" className="block text-xs text-slate-600">
              {catalog.status === 'rejected' ? 'Rejected' : 'Reviewed'} by {names.get(catalog.reviewedBy)?.name ?? <code className="font-mono">{catalog.reviewedBy}</code>}
            </span>
          )}
        </td>
        <td className="px-3 py-2">{catalog.source}</td>
        <td data-testid="catalog-status" className="px-3 py-2">
          <StatusBadge status={catalog.status} />
          {catalog.rejectionReason && <p className="mt-1 max-w-xs break-words text-xs text-slate-500">{catalog.rejectionReason}</p>}
        </td>
        <td className="px-3 py-2">
          {catalog.lineCount}
          {catalog.skippedCount > 0 && <span className="text-xs text-slate-500"> ({catalog.skippedCount} skipped)</span>}
          {pending && catalog.lineCount === 0 && <p className="max-w-48 text-xs text-amber-800">Empty: approving it takes this pharmacy out of routing.</p>}
        </td>
        <td className="whitespace-nowrap px-3 py-2 text-xs">{formatDateTime(catalog.createdAt)}</td>
        <td className="px-3 py-2 text-right">
          <div className="flex justify-end gap-2">
            <BusyButton variant="secondary" busy={showLines && lines.isPending} onClick={() => setShowLines(!showLines)} aria-expanded={showLines}>
              {showLines ? 'Hide lines' : 'View lines'}
            </BusyButton>
            {pending && (
              <>
                <BusyButton busy={approve.isPending} busyLabel="Approving…" onClick={() => approve.mutate({ id: catalog.id })}>Approve</BusyButton>
                <BusyButton variant="danger" onClick={() => setRejecting(!rejecting)} aria-expanded={rejecting}>Reject</BusyButton>
              </>
            )}
          </div>
        </td>
      </tr>
      {((rejecting && pending) || error) && (
        <tr>
          <td colSpan={6} className="px-3 pb-3">
            {rejecting && pending && (
              <form
                className="flex flex-wrap items-end gap-3"
                onSubmit={(e) => {
                  e.preventDefault();
                  reject.mutate({ id: catalog.id, reason });
                }}
              >
                <div className="min-w-56 flex-1">
                  <Field label="Rejection reason" value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} placeholder="Prices do not match the contract" />
                  <FieldMessage error={reject.error} field="reason" />
                </div>
                <BusyButton type="submit" variant="danger" busy={reject.isPending} busyLabel="Rejecting…">Confirm rejection</BusyButton>
                <BusyButton variant="secondary" onClick={() => setRejecting(false)}>Cancel</BusyButton>
              </form>
            )}
            {error && <div className="mt-2"><ApiRefusal error={error} /></div>}
          </td>
        </tr>
      )}
      {showLines && lines.data && (
        <tr>
          <td colSpan={6} className="px-3 pb-3">
            <table className="w-full rounded border border-slate-100 bg-slate-50 text-left text-xs">
              <caption className="sr-only">Lines of catalog {catalog.id}</caption>
              <thead className="text-slate-500">
                <tr><th className="px-2 py-1">Line</th><th className="px-2">SKU</th><th className="px-2">Item code</th><th className="px-2">Price</th><th className="px-2">Stock</th><th className="px-2">ETA</th></tr>
              </thead>
              <tbody>
                {lines.data.lines.map((l) => (
                  <tr key={l.line} data-testid="catalog-line" className="border-t border-slate-100">
                    <td className="px-2 py-1">{l.line}</td>
                    <td className="px-2 font-mono">{l.sku}</td>
                    <td className="px-2 font-mono">{l.itemCode}</td>
                    <td className="px-2">{formatCents(l.priceCents)}</td>
                    <td className="px-2">{l.stock}</td>
                    <td className="px-2">{formatDays(l.etaDays)}</td>
                  </tr>
                ))}
                {lines.data.lines.length === 0 && <tr><td colSpan={6} className="px-2 py-1 text-slate-500">This catalog has no lines.</td></tr>}
              </tbody>
            </table>
          </td>
        </tr>
      )}
    </Fragment>
  );
}
