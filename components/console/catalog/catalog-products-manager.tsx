'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal, FieldMessage } from './catalog-errors';
import { LIST_INPUT, PRODUCT_FORMS, type ProductForm } from './catalog-types';
import { BusyButton, card, CheckboxField, SelectField } from './catalog-ui';
import { CatalogProductTable } from './catalog-product-table';
import { Field } from '../ui/field';
import { Loading, QueryError } from '../ui/query-state';

const EMPTY = { name: '', sku: '', form: 'tablet' as ProductForm, strength: '', rxRequired: true, active: true, description: '', ndc: '', rxcui: '' };
const FIELDS = ['name', 'sku', 'form', 'strength', 'description', 'ndc', 'rxcui'] as const;

export function CatalogProductsManager() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const products = useQuery(trpc.products.listProducts.queryOptions(LIST_INPUT));
  const [draft, setDraft] = useState(EMPTY);
  const set = <K extends keyof typeof EMPTY>(k: K, v: (typeof EMPTY)[K]) => setDraft((d) => ({ ...d, [k]: v }));
  const create = useMutation(
    trpc.products.createProduct.mutationOptions({
      onSuccess: () => {
        setDraft(EMPTY);
        return qc.invalidateQueries({ queryKey: trpc.products.listProducts.queryKey() });
      },
    }),
  );

  function submit(e: React.FormEvent) {
    e.preventDefault();
    create.mutate({
      name: draft.name,
      sku: draft.sku.trim(),
      form: draft.form,
      rxRequired: draft.rxRequired,
      active: draft.active,
      ...(draft.strength.trim() ? { strength: draft.strength.trim() } : {}),
      ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
      ...(draft.ndc.trim() ? { ndc: draft.ndc.trim() } : {}),
      ...(draft.rxcui.trim() ? { rxcui: draft.rxcui.trim() } : {}),
    });
  }

  return (
    <div className="space-y-4">
      <form onSubmit={submit} className={`${card} space-y-4`} aria-labelledby="new-product">
        <h2 id="new-product" className="font-semibold">New product</h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Field label="Product name" name="name" value={draft.name} onChange={(e) => set('name', e.target.value)} required maxLength={200} />
            <FieldMessage error={create.error} field="name" />
          </div>
          <div>
            <Field label="SKU" name="sku" value={draft.sku} onChange={(e) => set('sku', e.target.value)} required maxLength={64} />
            <FieldMessage error={create.error} field="sku" />
          </div>
          <div>
            <SelectField label="Form" name="form" value={draft.form} onChange={(e) => set('form', e.target.value as ProductForm)}>
              {PRODUCT_FORMS.map((f) => (
                <option key={f} value={f}>{f}</option>
              ))}
            </SelectField>
            <FieldMessage error={create.error} field="form" />
          </div>
          <div>
            <Field label="Strength" name="strength" placeholder="2.5 mg" value={draft.strength} onChange={(e) => set('strength', e.target.value)} maxLength={50} />
            <FieldMessage error={create.error} field="strength" />
          </div>
          <div>
            {/* Drug codes name the product to EHRs (FHIR MedicationRequest); the server keeps an NDC as 11 digits 5-4-2. */}
            <Field label="NDC (optional)" name="ndc" placeholder="0169-4132-12" value={draft.ndc} onChange={(e) => set('ndc', e.target.value)} maxLength={13} inputMode="numeric" />
            <FieldMessage error={create.error} field="ndc" />
          </div>
          <div>
            <Field label="RxCUI (optional)" name="rxcui" placeholder="1991311" value={draft.rxcui} onChange={(e) => set('rxcui', e.target.value)} maxLength={10} inputMode="numeric" />
            <FieldMessage error={create.error} field="rxcui" />
          </div>
          <div className="sm:col-span-2">
            <Field label="Description" name="description" value={draft.description} onChange={(e) => set('description', e.target.value)} maxLength={2000} />
            <FieldMessage error={create.error} field="description" />
          </div>
        </div>
        <div className="flex flex-wrap gap-6">
          <CheckboxField label="Prescription required" checked={draft.rxRequired} onChange={(e) => set('rxRequired', e.target.checked)} />
          <CheckboxField label="Active" checked={draft.active} onChange={(e) => set('active', e.target.checked)} />
        </div>
        <ApiRefusal error={create.error} fields={FIELDS} />
        <BusyButton type="submit" busy={create.isPending} busyLabel="Creating…">Create product</BusyButton>
      </form>
      {create.data && !create.isPending && (
        <p role="status" className="break-words text-sm text-emerald-800">
          Created {create.data.name} ({create.data.sku}).
        </p>
      )}
      {products.isPending && <Loading label="Loading products…" />}
      {products.isError && <QueryError error={products.error} title="The products could not be read." />}
      {products.data && <CatalogProductTable products={products.data} />}
    </div>
  );
}
