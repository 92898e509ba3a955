'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal } from '../catalog/catalog-errors';
import { BusyButton, StatusBadge } from '../catalog/catalog-ui';
import { IdChip } from '../ui/copy-button';
import { PharmacyCatalogUpload } from './pharmacy-catalog-upload';
import { PharmacyCatalogs } from './pharmacy-catalogs';
import { catalogsInput, verificationInput, type Pharmacy } from './pharmacy-types';
import { PharmacyVerification, verificationAdvice } from './pharmacy-verification';

export function PharmacyRow({ pharmacy }: { pharmacy: Pharmacy }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const catalogs = useQuery(trpc.catalogs.listCatalogs.queryOptions(catalogsInput(pharmacy.id)));
  const toggle = useMutation(
    trpc.pharmacies.updatePharmacy.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.pharmacies.listPharmacies.queryKey() }),
    }),
  );
  const sync = useMutation(
    trpc.pharmacies.syncPharmacyCatalog.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.catalogs.listCatalogs.queryKey() }),
    }),
  );
  const http = pharmacy.adapter === 'http';
  // The same query the check's section reads (one request): an http pharmacy should pass before it takes live orders.
  const verification = useQuery({ ...trpc.pharmacies.getPharmacyVerification.queryOptions(verificationInput(pharmacy.id)), enabled: http });
  const advice = http && verification.isSuccess ? verificationAdvice(verification.data, pharmacy.status === 'enabled') : null;
  const approved = catalogs.data?.find((c) => c.id === pharmacy.approvedCatalogId);
  const baseUrl = 'baseUrl' in pharmacy.settings ? pharmacy.settings.baseUrl : null;
  const synced = sync.data;

  return (
    <li className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="pharmacy-row" aria-label={pharmacy.name}>
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="min-w-0 break-words text-base font-semibold">{pharmacy.name}</h3>
        <StatusBadge status={pharmacy.status} />
        <span className="rounded bg-slate-100 px-2 py-0.5 text-xs text-slate-700">{pharmacy.adapter}</span>
        <div className="flex flex-wrap gap-2 sm:ml-auto">
          <BusyButton variant="secondary" busy={toggle.isPending} onClick={() => toggle.mutate({ id: pharmacy.id, status: pharmacy.status === 'enabled' ? 'disabled' : 'enabled' })}>
            {pharmacy.status === 'enabled' ? 'Disable' : 'Enable'}
          </BusyButton>
          <BusyButton variant="secondary" busy={sync.isPending} busyLabel="Syncing…" onClick={() => sync.mutate({ id: pharmacy.id })}>
            Sync catalog
          </BusyButton>
        </div>
      </div>
      <div className="mt-1">
        <IdChip id={pharmacy.id} />
      </div>
      {advice && (
        <p data-testid="verification-advice" className="mt-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          {advice}
        </p>
      )}
      <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-slate-600 sm:grid-cols-[max-content_minmax(0,1fr)]">
        <dt className="font-medium text-slate-500">States</dt>
        <dd data-testid="pharmacy-states" className="break-words">{pharmacy.states.join(', ')}</dd>
        <dt className="font-medium text-slate-500">Approved catalog</dt>
        <dd data-testid="pharmacy-approved-catalog" className="break-all font-mono">
          {pharmacy.approvedCatalogId ? `${pharmacy.approvedCatalogId}${approved ? ` (${approved.lineCount} line${approved.lineCount === 1 ? '' : 's'})` : ''}` : 'none: not routed to yet'}
        </dd>
        {baseUrl && (
          <>
            <dt className="font-medium text-slate-500">Base URL</dt>
            <dd className="break-all font-mono">{baseUrl}</dd>
          </>
        )}
        <dt className="font-medium text-slate-500">Secret</dt>
        <dd className="font-mono">{pharmacy.secretHint}</dd>
        <dt className="font-medium text-slate-500">Callback</dt>
        <dd className="break-all font-mono">{pharmacy.callbackUrl}</dd>
      </dl>
      <div className="mt-3 space-y-2">
        <ApiRefusal error={toggle.error} />
        <ApiRefusal error={sync.error} />
      </div>
      {synced && !sync.isPending && (
        <p role="status" className="mt-3 break-words text-slate-700">
          Synced catalog {synced.id}: {synced.lineCount} line{synced.lineCount === 1 ? '' : 's'}
          {synced.skippedCount ? `, ${synced.skippedCount} skipped (unknown SKU)` : ''}; pending review.
        </p>
      )}
      {http && <PharmacyVerification pharmacy={pharmacy} />}
      <PharmacyCatalogUpload pharmacy={pharmacy} />
      <PharmacyCatalogs pharmacy={pharmacy} />
    </li>
  );
}
