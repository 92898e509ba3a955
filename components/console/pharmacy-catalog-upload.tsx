'use client';

import { useRouter } from 'next/navigation';
import { useId, useRef, useState } from 'react';
import type { Catalog } from './catalog-types';
import { BusyButton, ErrorAlert, TextAreaField, type ApiErrorBody } from './catalog-ui';
import type { Pharmacy } from './pharmacy-types';

const HEADER = 'sku,item_code,price_cents,stock,eta_days';

/** POSTs the CSV text as text/csv (apiCall speaks JSON only); a refusal keeps its per-line details. */
async function uploadCsv(connectionId: string, csv: string, auth: { token: string; mode: string }) {
  const res = await fetch(`/v1/catalogs/upload?pharmacyConnectionId=${encodeURIComponent(connectionId)}`, {
    method: 'POST',
    headers: { 'content-type': 'text/csv', authorization: `Bearer ${auth.token}`, 'x-mode': auth.mode },
    body: csv,
  });
  const json = await res.json().catch(() => ({}));
  return res.ok
    ? { ok: true as const, data: json as Catalog }
    : { ok: false as const, error: (json?.error as ApiErrorBody | undefined) ?? { message: `The upload failed (HTTP ${res.status}).` } };
}

export function PharmacyCatalogUpload({ pharmacy, token, mode }: { pharmacy: Pharmacy; token: string; mode: string }) {
  const router = useRouter();
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const textId = useId();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [notice, setNotice] = useState<string>();

  async function pick(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    setCsv(await file.text());
    setError(undefined);
    setNotice(undefined);
  }

  async function upload(e: React.FormEvent) {
    e.preventDefault();
    if (!csv.trim()) return setError({ message: 'Choose a CSV file or paste its contents first.' });
    setBusy(true);
    setNotice(undefined);
    const res = await uploadCsv(pharmacy.id, csv, { token, mode });
    setBusy(false);
    if (!res.ok) return setError(res.error);
    setError(undefined);
    setNotice(`Uploaded catalog ${res.data.id} with ${res.data.lineCount} line${res.data.lineCount === 1 ? '' : 's'}; it is pending review.`);
    setCsv('');
    setFileName(undefined);
    if (fileInput.current) fileInput.current.value = '';
    router.refresh();
  }

  return (
    <form onSubmit={upload} className="mt-4 space-y-3 rounded-md border border-slate-100 bg-slate-50 p-3" aria-label={`Upload a catalog for ${pharmacy.name}`}>
      <h4 className="font-medium text-slate-800">Upload a price list</h4>
      <p className="text-xs text-slate-500">
        Header <code className="font-mono">{HEADER}</code> (<code className="font-mono">product_id</code> may replace <code className="font-mono">sku</code>). Every row must be valid or nothing is applied.
      </p>
      <div className="text-sm">
        <label htmlFor={fileId} className="block font-medium text-slate-700">Catalog CSV file</label>
        <input
          id={fileId}
          ref={fileInput}
          type="file"
          accept=".csv,text/csv"
          onChange={pick}
          className="mt-1 block text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1.5 file:font-semibold file:text-indigo-700"
        />
        {fileName && <p className="mt-1 text-xs text-slate-500">Loaded {fileName} below; review it, then upload.</p>}
      </div>
      <TextAreaField id={textId} label="Catalog CSV" rows={5} placeholder={`${HEADER}\nSEMA-025,A-100,12900,40,3`} value={csv} onChange={(e) => setCsv(e.target.value)} spellCheck={false} />
      {error && <ErrorAlert error={error} testId="catalog-upload-error" />}
      {notice && <p role="status" data-testid="catalog-upload-status" className="text-sm text-emerald-800">{notice}</p>}
      <BusyButton type="submit" busy={busy} busyLabel="Uploading…">Upload catalog</BusyButton>
    </form>
  );
}
