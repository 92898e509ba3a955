'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import type { Product, Protocol } from './catalog-types';
import { BusyButton, card, ErrorAlert, SelectField, StatusBadge, type ApiErrorBody } from './catalog-ui';
import { Field } from './field';

interface DraftItem {
  productId: string;
  quantity: string;
  sig: string;
  refills: string;
}

const newItem = (productId = ''): DraftItem => ({ productId, quantity: '1', sig: '', refills: '0' });

export function CatalogProtocolsManager({ protocols, products, token, mode }: { protocols: Protocol[]; products: Product[]; token: string; mode: string }) {
  const router = useRouter();
  const names = new Map(products.map((p) => [p.id, p]));
  const offered = products.filter((p) => p.active);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [items, setItems] = useState<DraftItem[]>([newItem()]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [notice, setNotice] = useState<string>();

  const setItem = (i: number, patch: Partial<DraftItem>) => setItems((all) => all.map((it, j) => (j === i ? { ...it, ...patch } : it)));

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const body = {
      name,
      ...(description.trim() ? { description: description.trim() } : {}),
      items: items.map((it) => ({ productId: it.productId, quantity: Number(it.quantity), sig: it.sig, refills: Number(it.refills) })),
    };
    const res = await apiCall<Protocol>('POST', '/protocols', body, { token, mode });
    setBusy(false);
    if (!res.ok) return setError(res.error ?? { message: 'The protocol could not be created.' });
    setError(undefined);
    setNotice(`Created protocol ${res.data.name}.`);
    setName('');
    setDescription('');
    setItems([newItem()]);
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
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-700">Items</legend>
          {items.map((it, i) => (
            <div key={i} data-testid="protocol-item-draft" className="grid items-end gap-3 rounded-md border border-slate-100 p-3 sm:grid-cols-[2fr_1fr_3fr_1fr_auto]">
              <SelectField label={`Item ${i + 1} product`} value={it.productId} onChange={(e) => setItem(i, { productId: e.target.value })} required>
                <option value="">Choose a product…</option>
                {offered.map((p) => (
                  <option key={p.id} value={p.id}>{p.name}{p.strength ? ` ${p.strength}` : ''} ({p.sku})</option>
                ))}
              </SelectField>
              <Field label={`Item ${i + 1} quantity`} type="number" min={1} max={1000} value={it.quantity} onChange={(e) => setItem(i, { quantity: e.target.value })} required />
              <Field label={`Item ${i + 1} sig`} placeholder="Take 1 tablet daily" value={it.sig} onChange={(e) => setItem(i, { sig: e.target.value })} required maxLength={500} />
              <Field label={`Item ${i + 1} refills`} type="number" min={0} max={12} value={it.refills} onChange={(e) => setItem(i, { refills: e.target.value })} required />
              <button type="button" disabled={items.length === 1} onClick={() => setItems(items.filter((_, j) => j !== i))} className="pb-2 text-sm text-red-700 hover:underline disabled:text-slate-300">
                Remove<span className="sr-only"> item {i + 1}</span>
              </button>
            </div>
          ))}
          <button type="button" disabled={items.length >= 50} onClick={() => setItems([...items, newItem()])} className="text-sm font-medium text-indigo-700 hover:underline">
            Add item
          </button>
        </fieldset>
        {offered.length === 0 && <p className="text-sm text-slate-500">Create an active product first.</p>}
        {error && <ErrorAlert error={error} />}
        <BusyButton type="submit" busy={busy} busyLabel="Creating…" disabled={offered.length === 0}>Create protocol</BusyButton>
      </form>
      {notice && <p role="status" className="text-sm text-emerald-800">{notice}</p>}
    </div>
  );
}
