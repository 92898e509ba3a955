'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import type { Product } from './catalog-types';
import { BusyButton, card, ErrorAlert, SelectField, type ApiErrorBody } from './catalog-ui';
import { Field } from './field';
import type { Patient } from './patient-types';
import type { Order } from './order-types';

interface DraftItem {
  productId: string;
  quantity: string;
  sig: string;
  refills: string;
}

const newItem = (): DraftItem => ({ productId: '', quantity: '1', sig: '', refills: '0' });

interface Choices {
  products: Product[] | null;
  productsRefused?: string;
  patients: Patient[] | null;
  patientsRefused?: string;
}

/**
 * "New order": products with quantity, sig and refills, and the patient. The products and patients are
 * fetched when the form is opened, not with the page: listing patients is a logged read of each record.
 */
export function OrderCreateForm({ token, mode }: { token: string; mode: string }) {
  const router = useRouter();
  const auth = { token, mode };
  const [open, setOpen] = useState(false);
  const [choices, setChoices] = useState<Choices>();
  const [patientId, setPatientId] = useState('');
  const [priority, setPriority] = useState<'routine' | 'urgent'>('routine');
  const [items, setItems] = useState<DraftItem[]>([newItem()]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [created, setCreated] = useState<Order>();

  const setItem = (i: number, patch: Partial<DraftItem>) => setItems((all) => all.map((it, j) => (j === i ? { ...it, ...patch } : it)));

  async function openForm() {
    setOpen(true);
    setCreated(undefined);
    if (choices) return;
    const [products, patients] = await Promise.all([
      apiCall<Product[]>('GET', '/products', undefined, auth),
      apiCall<Patient[]>('GET', '/patients?limit=100', undefined, auth),
    ]);
    setChoices({
      products: products.ok ? products.data.filter((p) => p.active) : null,
      productsRefused: products.ok ? undefined : (products.error?.message ?? 'Products could not be loaded.'),
      patients: patients.ok ? patients.data : null,
      patientsRefused: patients.ok ? undefined : (patients.error?.message ?? 'Patients could not be loaded.'),
    });
  }

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const body = {
      items: items.map((it) => ({ productId: it.productId, quantity: Number(it.quantity), sig: it.sig, refills: Number(it.refills) })),
      ...(patientId ? { patientId } : {}),
      priority,
    };
    const res = await apiCall<Order>('POST', '/orders', body, auth);
    setBusy(false);
    if (!res.ok) return setError(res.error ?? { message: 'The order could not be created.' });
    setError(undefined);
    setCreated(res.data);
    setOpen(false);
    setPatientId('');
    setPriority('routine');
    setItems([newItem()]);
    router.refresh();
  }

  const products = choices?.products ?? [];
  return (
    <div className="space-y-3">
      {!open && <BusyButton onClick={openForm}>New order</BusyButton>}
      {created && (
        <p role="status" data-testid="order-created" className="text-sm text-emerald-800">
          Created order{' '}
          <Link href={`/orders/${created.id}`} className="font-mono font-medium text-indigo-700 hover:underline">{created.id}</Link>
          : {created.status === 'draft' ? 'a draft (choose the patient or confirm its flagged fields to send it for approval)' : created.status}.
        </p>
      )}
      {open && (
        <form onSubmit={create} className={`${card} space-y-4`} aria-labelledby="new-order">
          <div className="flex items-center gap-3">
            <h2 id="new-order" className="font-semibold">New order</h2>
            <button type="button" onClick={() => setOpen(false)} className="ml-auto text-sm text-slate-600 hover:underline">Close</button>
          </div>
          {!choices ? (
            <p className="text-sm text-slate-500" aria-busy>Loading products and patients…</p>
          ) : (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                {choices.patients ? (
                  <SelectField label="Patient" value={patientId} onChange={(e) => setPatientId(e.target.value)}>
                    <option value="">No patient yet (saved as a draft)</option>
                    {choices.patients.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.lastName}, {p.firstName} ({p.dateOfBirth}{p.address ? `, ${p.address.state}` : ''})
                      </option>
                    ))}
                  </SelectField>
                ) : (
                  <p className="text-sm text-slate-600">Patients cannot be listed: {choices.patientsRefused} The order is saved as a draft.</p>
                )}
                <SelectField label="Priority" value={priority} onChange={(e) => setPriority(e.target.value as 'routine' | 'urgent')}>
                  <option value="routine">Routine</option>
                  <option value="urgent">Urgent</option>
                </SelectField>
              </div>
              {choices.products ? (
                <fieldset className="space-y-3">
                  <legend className="text-sm font-medium text-slate-700">Prescriptions</legend>
                  {items.map((it, i) => (
                    <div key={i} data-testid="order-item-draft" className="grid items-end gap-3 rounded-md border border-slate-100 p-3 sm:grid-cols-[2fr_1fr_3fr_1fr_auto]">
                      <SelectField label={`Item ${i + 1} product`} value={it.productId} onChange={(e) => setItem(i, { productId: e.target.value })} required>
                        <option value="">Choose a product…</option>
                        {products.map((p) => (
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
                  {products.length === 0 && <p className="text-sm text-slate-500">No active products in {mode}: create one on the Products page first.</p>}
                </fieldset>
              ) : (
                <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                  Products cannot be listed with your role: {choices.productsRefused} Orders cannot be put together here; ask an admin, or create them through the API.
                </p>
              )}
              {error && <ErrorAlert error={error} />}
              <BusyButton type="submit" busy={busy} busyLabel="Creating…" disabled={!choices.products || products.length === 0}>Create order</BusyButton>
            </>
          )}
        </form>
      )}
    </div>
  );
}
