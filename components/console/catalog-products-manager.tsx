'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { apiCall } from './api-client';
import { PRODUCT_FORMS, type Product, type ProductForm } from './catalog-types';
import { BusyButton, card, CheckboxField, ErrorAlert, SelectField, StatusBadge, tableHead, type ApiErrorBody } from './catalog-ui';
import { Field } from './field';

const EMPTY = { name: '', sku: '', form: 'tablet' as ProductForm, strength: '', rxRequired: true, active: true, description: '' };

export function CatalogProductsManager({ products, token, mode }: { products: Product[]; token: string; mode: string }) {
  const router = useRouter();
  const auth = { token, mode };
  const [draft, setDraft] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiErrorBody>();
  const [notice, setNotice] = useState<string>();
  const set = <K extends keyof typeof EMPTY>(k: K, v: (typeof EMPTY)[K]) => setDraft((d) => ({ ...d, [k]: v }));

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const body = {
      name: draft.name,
      sku: draft.sku.trim(),
      form: draft.form,
      rxRequired: draft.rxRequired,
      active: draft.active,
      ...(draft.strength.trim() ? { strength: draft.strength.trim() } : {}),
      ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
    };
    const res = await apiCall<Product>('POST', '/products', body, auth);
    setBusy(false);
    if (!res.ok) return setError(res.error ?? { message: 'The product could not be created.' });
    setError(undefined);
    setNotice(`Created ${res.data.name} (${res.data.sku}).`);
    setDraft(EMPTY);
    router.refresh();
  }

  return (
    <div className="space-y-4">
      <form onSubmit={create} className={`${card} space-y-4`} aria-labelledby="new-product">
        <h2 id="new-product" className="font-semibold">New product</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Product name" name="name" value={draft.name} onChange={(e) => set('name', e.target.value)} required maxLength={200} />
          <Field label="SKU" name="sku" value={draft.sku} onChange={(e) => set('sku', e.target.value)} required maxLength={64} pattern="[A-Za-z0-9._\-]+" title="Letters, digits, . _ or -" />
          <SelectField label="Form" name="form" value={draft.form} onChange={(e) => set('form', e.target.value as ProductForm)}>
            {PRODUCT_FORMS.map((f) => (
              <option key={f} value={f}>{f}</option>
            ))}
          </SelectField>
          <Field label="Strength" name="strength" placeholder="2.5 mg" value={draft.strength} onChange={(e) => set('strength', e.target.value)} maxLength={50} />
          <div className="sm:col-span-2">
            <Field label="Description" name="description" value={draft.description} onChange={(e) => set('description', e.target.value)} maxLength={2000} />
          </div>
        </div>
        <div className="flex gap-6">
          <CheckboxField label="Prescription required" checked={draft.rxRequired} onChange={(e) => set('rxRequired', e.target.checked)} />
          <CheckboxField label="Active" checked={draft.active} onChange={(e) => set('active', e.target.checked)} />
        </div>
        {error && <ErrorAlert error={error} />}
        <BusyButton type="submit" busy={busy} busyLabel="Creating…">Create product</BusyButton>
      </form>
      {notice && <p role="status" className="text-sm text-emerald-800">{notice}</p>}
      <ProductTable products={products} auth={auth} />
    </div>
  );
}

function ProductTable({ products, auth }: { products: Product[]; auth: { token: string; mode: string } }) {
  const router = useRouter();
  const [busyId, setBusyId] = useState<string>();
  const [error, setError] = useState<ApiErrorBody>();

  async function toggle(p: Product) {
    setBusyId(p.id);
    const res = await apiCall<Product>('PATCH', `/products/${p.id}`, { active: !p.active }, auth);
    setBusyId(undefined);
    setError(res.ok ? undefined : (res.error ?? { message: 'The product could not be changed.' }));
    if (res.ok) router.refresh();
  }

  return (
    <div className="space-y-2">
      {error && <ErrorAlert error={error} />}
      <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
        <caption className="sr-only">Products</caption>
        <thead className={tableHead}>
          <tr><th className="px-4 py-2">Name</th><th>SKU</th><th>Form</th><th>Strength</th><th>Rx</th><th>Status</th><th><span className="sr-only">Actions</span></th></tr>
        </thead>
        <tbody>
          {products.map((p) => (
            <tr key={p.id} data-testid="product-row" className="border-t border-slate-100">
              <td className="px-4 py-2 font-medium">{p.name}</td>
              <td className="font-mono">{p.sku}</td>
              <td>{p.form}</td>
              <td>{p.strength ?? '—'}</td>
              <td>{p.rxRequired ? 'Rx' : 'OTC'}</td>
              <td><StatusBadge status={p.active ? 'active' : 'inactive'} /></td>
              <td className="pr-4 text-right">
                <BusyButton variant="secondary" busy={busyId === p.id} onClick={() => toggle(p)} aria-label={`${p.active ? 'Deactivate' : 'Activate'} ${p.name}`}>
                  {p.active ? 'Deactivate' : 'Activate'}
                </BusyButton>
              </td>
            </tr>
          ))}
          {products.length === 0 && <tr><td colSpan={7} className="px-4 py-3 text-slate-500">No products yet.</td></tr>}
        </tbody>
      </table>
    </div>
  );
}
