'use client';

import { useRouter } from 'next/navigation';
import { Fragment, useState } from 'react';
import { apiCall } from './api-client';
import type { Catalog, CatalogWithLines } from './catalog-types';
import { BusyButton, ErrorAlert, formatCents, formatDays, formatWhen, StatusBadge, tableHead, type ApiErrorBody } from './catalog-ui';
import { Field } from './field';
import type { Pharmacy } from './pharmacy-types';

export function PharmacyCatalogs({ pharmacy, catalogs, token, mode }: { pharmacy: Pharmacy; catalogs: Catalog[]; token: string; mode: string }) {
  return (
    <div className="mt-4">
      <h4 className="font-medium text-slate-800">Catalogs</h4>
      <table className="mt-2 w-full text-left text-sm">
        <caption className="sr-only">Catalogs of {pharmacy.name}</caption>
        <thead className={tableHead}>
          <tr><th className="py-1">Catalog</th><th>Source</th><th>Status</th><th>Lines</th><th>Created</th><th><span className="sr-only">Actions</span></th></tr>
        </thead>
        <tbody>
          {catalogs.map((c) => (
            <CatalogRow key={c.id} catalog={c} auth={{ token, mode }} />
          ))}
          {catalogs.length === 0 && <tr><td colSpan={6} className="py-2 text-slate-500">No catalogs yet: upload a CSV or sync from the pharmacy.</td></tr>}
        </tbody>
      </table>
    </div>
  );
}

function CatalogRow({ catalog, auth }: { catalog: Catalog; auth: { token: string; mode: string } }) {
  const router = useRouter();
  const [busy, setBusy] = useState<'approve' | 'reject' | 'lines'>();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<ApiErrorBody>();
  const [lines, setLines] = useState<CatalogWithLines['lines']>();
  const pending = catalog.status === 'pending';

  async function review(verb: 'approve' | 'reject') {
    setBusy(verb);
    const res = await apiCall<Catalog>('PATCH', `/catalogs/${catalog.id}/${verb}`, verb === 'reject' ? { reason } : {}, auth);
    setBusy(undefined);
    if (!res.ok) return setError(res.error ?? { message: `The catalog could not be ${verb}d.` });
    setError(undefined);
    setRejecting(false);
    router.refresh();
  }

  async function toggleLines() {
    if (lines) return setLines(undefined);
    setBusy('lines');
    const res = await apiCall<CatalogWithLines>('GET', `/catalogs/${catalog.id}`, undefined, auth);
    setBusy(undefined);
    if (!res.ok) return setError(res.error ?? { message: 'The catalog lines could not be loaded.' });
    setError(undefined);
    setLines(res.data.lines);
  }

  return (
    <Fragment>
      <tr data-testid="catalog-row" data-catalog-id={catalog.id} className="border-t border-slate-100 align-top">
        <td className="py-2 font-mono text-xs">{catalog.id}</td>
        <td>{catalog.source}</td>
        <td data-testid="catalog-status">
          <StatusBadge status={catalog.status} />
          {catalog.rejectionReason && <p className="mt-1 text-xs text-slate-500">{catalog.rejectionReason}</p>}
        </td>
        <td>
          {catalog.lineCount}
          {catalog.skippedCount > 0 && <span className="text-xs text-slate-500"> ({catalog.skippedCount} skipped)</span>}
          {pending && catalog.lineCount === 0 && <p className="text-xs text-amber-800">Empty: approving it takes this pharmacy out of routing.</p>}
        </td>
        <td className="text-xs">{formatWhen(catalog.createdAt)}</td>
        <td className="text-right">
          <div className="flex flex-wrap justify-end gap-2">
            <BusyButton variant="secondary" busy={busy === 'lines'} onClick={toggleLines} aria-expanded={!!lines}>
              {lines ? 'Hide lines' : 'View lines'}
            </BusyButton>
            {pending && (
              <>
                <BusyButton busy={busy === 'approve'} busyLabel="Approving…" onClick={() => review('approve')}>Approve</BusyButton>
                <BusyButton variant="danger" onClick={() => setRejecting(!rejecting)} aria-expanded={rejecting}>Reject</BusyButton>
              </>
            )}
          </div>
        </td>
      </tr>
      {(rejecting || error) && (
        <tr>
          <td colSpan={6} className="pb-3">
            {rejecting && pending && (
              <form
                className="flex flex-wrap items-end gap-3"
                onSubmit={(e) => {
                  e.preventDefault();
                  void review('reject');
                }}
              >
                <div className="min-w-64 flex-1">
                  <Field label="Rejection reason" value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} placeholder="Prices do not match the contract" />
                </div>
                <BusyButton type="submit" variant="danger" busy={busy === 'reject'} busyLabel="Rejecting…">Confirm rejection</BusyButton>
                <BusyButton variant="secondary" onClick={() => setRejecting(false)}>Cancel</BusyButton>
              </form>
            )}
            {error && <div className="mt-2"><ErrorAlert error={error} /></div>}
          </td>
        </tr>
      )}
      {lines && (
        <tr>
          <td colSpan={6} className="pb-3">
            <table className="w-full rounded border border-slate-100 bg-slate-50 text-left text-xs">
              <caption className="sr-only">Lines of catalog {catalog.id}</caption>
              <thead className="text-slate-500">
                <tr><th className="px-2 py-1">Line</th><th>SKU</th><th>Item code</th><th>Price</th><th>Stock</th><th>ETA</th></tr>
              </thead>
              <tbody>
                {lines.map((l) => (
                  <tr key={l.line} data-testid="catalog-line" className="border-t border-slate-100">
                    <td className="px-2 py-1">{l.line}</td>
                    <td className="font-mono">{l.sku}</td>
                    <td className="font-mono">{l.itemCode}</td>
                    <td>{formatCents(l.priceCents)}</td>
                    <td>{l.stock}</td>
                    <td>{formatDays(l.etaDays)}</td>
                  </tr>
                ))}
                {lines.length === 0 && <tr><td colSpan={6} className="px-2 py-1 text-slate-500">This catalog has no lines.</td></tr>}
              </tbody>
            </table>
          </td>
        </tr>
      )}
    </Fragment>
  );
}
