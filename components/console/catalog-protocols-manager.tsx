'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import type { Product, Protocol } from './catalog-types';
import { BusyButton, card, ErrorAlert, StatusBadge, type ApiErrorBody } from './catalog-ui';
import { Field } from './field';
import { newLine, PrescriptionLines, toLines, type DraftLine } from './prescription-lines';


export function CatalogProtocolsManager({ protocols, products, token, mode }: { protocols: Protocol[]; products: Product[]; token: string; mode: string }) {
  const router = useRouter();
  const names = new Map(products.map((p) => [p.id, p]));
  const offered = products.filter((p) => p.active);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [items, setItems] = useState<DraftLine[]>([newLine()]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [notice, setNotice] = useState<string>();

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const body = {
      name,
      ...(description.trim() ? { description: description.trim() } : {}),
      items: toLines(items),
    };
    const res = await apiCall<Protocol>('POST', '/protocols', body, { token, mode });
    setBusy(false);
    if (!res.ok) return setError(res.error ?? { message: 'The protocol could not be created.' });
    setError(undefined);
    setNotice(`Created protocol ${res.data.name}.`);
    setName('');
    setDescription('');
    setItems([newLine()]);
    router.refresh();
  }

  return (
    <div className="space-y-4">
      <ul className="space-y-3">
        {protocols.map((p) => (
          <li key={p.id} data-testid="protocol-row" className={`${card} text-sm`}>
            <div className="flex flex-wrap items-center gap-3">
              <span className="font-medium">{p.name}</span>
              <StatusBadge status={p.active ? 'active' : 'inactive'} />
              {p.description && <span className="text-slate-500">{p.description}</span>}
            </div>
            <ul className="mt-2 space-y-1 text-slate-700">
              {p.items.map((it, i) => (
                <li key={i}>
                  <span className="font-medium">{names.get(it.productId)?.name ?? it.productId}</span> × {it.quantity} · {it.sig} · {it.refills} refill{it.refills === 1 ? '' : 's'}
                </li>
              ))}
            </ul>
          </li>
        ))}
        {protocols.length === 0 && <li className="text-sm text-slate-500">No protocols yet.</li>}
      </ul>

      <form onSubmit={create} className={`${card} space-y-4`} aria-labelledby="new-protocol">
        <h3 id="new-protocol" className="font-semibold">New protocol</h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Protocol name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
          <Field label="Protocol description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
        </div>
        <PrescriptionLines legend="Items" testId="protocol-item-draft" lines={items} onChange={setItems} products={offered} />
        {offered.length === 0 && <p className="text-sm text-slate-500">Create an active product first.</p>}
        {error && <ErrorAlert error={error} />}
        <BusyButton type="submit" busy={busy} busyLabel="Creating…" disabled={offered.length === 0}>Create protocol</BusyButton>
      </form>
      {notice && <p role="status" className="text-sm text-emerald-800">{notice}</p>}
    </div>
  );
}
