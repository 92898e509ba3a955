'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import type { Catalog } from './catalog-types';
import { BusyButton, ErrorAlert, StatusBadge, type ApiErrorBody } from './catalog-ui';
import { PharmacyCatalogUpload } from './pharmacy-catalog-upload';
import { PharmacyCatalogs } from './pharmacy-catalogs';
import type { Pharmacy } from './pharmacy-types';

export function PharmacyRow({ pharmacy, catalogs, token, mode }: { pharmacy: Pharmacy; catalogs: Catalog[]; token: string; mode: string }) {
  const router = useRouter();
  const auth = { token, mode };
  const [busy, setBusy] = useState<'toggle' | 'sync'>();
  const [error, setError] = useState<ApiErrorBody>();
  const [notice, setNotice] = useState<string>();
  const approved = catalogs.find((c) => c.id === pharmacy.approvedCatalogId);
  const baseUrl = typeof pharmacy.settings.baseUrl === 'string' ? pharmacy.settings.baseUrl : null;

  async function toggle() {
    setBusy('toggle');
    const res = await apiCall<Pharmacy>('PATCH', `/pharmacies/${pharmacy.id}`, { status: pharmacy.status === 'enabled' ? 'disabled' : 'enabled' }, auth);
    setBusy(undefined);
    setError(res.ok ? undefined : (res.error ?? { message: 'The pharmacy could not be changed.' }));
    if (res.ok) router.refresh();
  }

  async function sync() {
    setBusy('sync');
    setNotice(undefined);
    const res = await apiCall<Catalog>('POST', `/pharmacies/${pharmacy.id}/sync-catalog`, {}, auth);
    setBusy(undefined);
    if (!res.ok) return setError(res.error ?? { message: 'The catalog could not be synced.' });
    setError(undefined);
    setNotice(
      `Synced catalog ${res.data.id}: ${res.data.lineCount} line${res.data.lineCount === 1 ? '' : 's'}` +
        `${res.data.skippedCount ? `, ${res.data.skippedCount} skipped (unknown SKU)` : ''}; pending review.`,
    );
    router.refresh();
  }

  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="pharmacy-row" aria-label={pharmacy.name}>
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="text-base font-semibold">{pharmacy.name}</h3>
        <StatusBadge status={pharmacy.status} />
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{pharmacy.adapter}</span>
        <div className="ml-auto flex gap-2">
          <BusyButton variant="secondary" busy={busy === 'toggle'} onClick={toggle}>
            {pharmacy.status === 'enabled' ? 'Disable' : 'Enable'}
          </BusyButton>
          <BusyButton variant="secondary" busy={busy === 'sync'} busyLabel="Syncing…" onClick={sync}>
            Sync catalog
          </BusyButton>
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-slate-600 sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-slate-500">States</dt>
        <dd data-testid="pharmacy-states">{pharmacy.states.join(', ')}</dd>
        <dt className="font-medium text-slate-500">Approved catalog</dt>
        <dd data-testid="pharmacy-approved-catalog" className="font-mono">
          {pharmacy.approvedCatalogId ? `${pharmacy.approvedCatalogId}${approved ? ` (${approved.lineCount} line${approved.lineCount === 1 ? '' : 's'})` : ''}` : 'none: not routed to yet'}
        </dd>
        {baseUrl && (
          <>
            <dt className="font-medium text-slate-500">Base URL</dt>
            <dd className="font-mono">{baseUrl}</dd>
          </>
        )}
        <dt className="font-medium text-slate-500">Secret</dt>
        <dd className="font-mono">{pharmacy.secretHint}</dd>
        <dt className="font-medium text-slate-500">Callback</dt>
        <dd className="font-mono">{pharmacy.callbackUrl}</dd>
      </dl>
      {error && <div className="mt-3"><ErrorAlert error={error} /></div>}
      {notice && <p role="status" className="mt-3 text-slate-700">{notice}</p>}
      <PharmacyCatalogUpload pharmacy={pharmacy} token={token} mode={mode} />
      <PharmacyCatalogs pharmacy={pharmacy} catalogs={catalogs} token={token} mode={mode} />
    </li>
  );
}
