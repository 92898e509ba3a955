'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import type { Product } from './catalog-types';
import { BusyButton, card, ErrorAlert, SelectField, type ApiErrorBody } from './catalog-ui';
import { newLine, PrescriptionLines, toLines, type DraftLine } from './prescription-lines';
import type { Patient } from './patient-types';
import type { Order } from './order-types';


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
  const [items, setItems] = useState<DraftLine[]>([newLine()]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [created, setCreated] = useState<Order>();


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
      items: toLines(items),
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
    setItems([newLine()]);
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
                <PrescriptionLines legend="Prescriptions" testId="order-item-draft" lines={items} onChange={setItems} products={products}>
                  {products.length === 0 && <p className="text-sm text-slate-500">No active products in {mode}: create one on the Products page first.</p>}
                </PrescriptionLines>
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
