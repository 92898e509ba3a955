'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal } from '../catalog/catalog-errors';
import { BusyButton, ErrorAlert, TextAreaField } from '../catalog/catalog-ui';
import type { Pharmacy } from './pharmacy-types';

const HEADER = 'sku,item_code,price_cents,stock,eta_days';

export function PharmacyCatalogUpload({ pharmacy }: { pharmacy: Pharmacy }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const textId = useId();
  const [csv, setCsv] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [empty, setEmpty] = useState(false);
  const upload = useMutation(
    trpc.catalogs.uploadCatalog.mutationOptions({
      onSuccess: () => {
        setCsv('');
        setFileName(undefined);
        if (fileInput.current) fileInput.current.value = '';
        return qc.invalidateQueries({ queryKey: trpc.catalogs.listCatalogs.queryKey() });
      },
    }),
  );

  async function pick(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    setCsv(await file.text());
    setEmpty(false);
    upload.reset();
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    // Nothing to send: said here rather than by a round trip.
    if (!csv.trim()) return setEmpty(true);
    setEmpty(false);
    upload.mutate({ pharmacyConnectionId: pharmacy.id, csv });
  }

  const done = upload.data;
  return (
    <form onSubmit={submit} className="mt-4 min-w-0 space-y-3 rounded-md border border-slate-100 bg-slate-50 p-3" aria-label={`Upload a catalog for ${pharmacy.name}`}>
      <h4 className="font-medium text-slate-800">Upload a price list</h4>
      <p className="break-words text-xs text-slate-500">
        Header <code className="break-all font-mono">{HEADER}</code> (<code className="font-mono">product_id</code> may replace <code className="font-mono">sku</code>). Every row must be valid or nothing is applied.
      </p>
      <div className="text-sm">
        <label htmlFor={fileId} className="block font-medium text-slate-700">Catalog CSV file</label>
        <input
          id={fileId}
          ref={fileInput}
          type="file"
          accept=".csv,text/csv"
          onChange={pick}
          className="mt-1 block max-w-full text-sm text-slate-600 file:mr-3 file:rounded-md file:border-0 file:bg-indigo-50 file:px-3 file:py-1.5 file:font-semibold file:text-indigo-700"
        />
        {fileName && <p className="mt-1 break-all text-xs text-slate-500">Loaded {fileName} below; review it, then upload.</p>}
      </div>
      <TextAreaField id={textId} label="Catalog CSV" rows={5} placeholder={`${HEADER}\nSEMA-025,A-100,12900,40,3`} value={csv} onChange={(e) => setCsv(e.target.value)} spellCheck={false} />
      {empty && <ErrorAlert error={{ message: 'Choose a CSV file or paste its contents first.' }} testId="catalog-upload-error" />}
      <ApiRefusal error={upload.error} testId="catalog-upload-error" />
      {done && !upload.isPending && (
        <p role="status" data-testid="catalog-upload-status" className="break-words text-sm text-emerald-800">
          Uploaded catalog {done.id} with {done.lineCount} line{done.lineCount === 1 ? '' : 's'}; it is pending review.
        </p>
      )}
      <BusyButton type="submit" busy={upload.isPending} busyLabel="Uploading…">Upload catalog</BusyButton>
    </form>
  );
}
