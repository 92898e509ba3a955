'use client';

import type { Product } from '../catalog/catalog-types';
import { SelectField } from '../catalog/catalog-ui';
import { Field } from '../ui/field';

/** One line of a protocol or an order as typed in a form (numbers stay text until submit). */
export interface DraftLine {
  productId: string;
  quantity: string;
  sig: string;
  refills: string;
}

export const newLine = (): DraftLine => ({ productId: '', quantity: '1', sig: '', refills: '0' });
export const toLines = (lines: DraftLine[]) => lines.map((l) => ({ productId: l.productId, quantity: Number(l.quantity), sig: l.sig, refills: Number(l.refills) }));

/** Product, quantity, sig and refills per line, with add and remove; shared by protocols and orders. */
export function PrescriptionLines({ legend, testId, lines, onChange, products, children }: {
  legend: string;
  testId: string;
  lines: DraftLine[];
  onChange: (next: DraftLine[]) => void;
  products: Product[];
  children?: React.ReactNode;
}) {
  const set = (i: number, patch: Partial<DraftLine>) => onChange(lines.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {lines.map((it, i) => (
        <div key={i} data-testid={testId} className="grid items-end gap-3 rounded-md border border-slate-100 p-3 sm:grid-cols-[2fr_1fr_3fr_1fr_auto]">
          <SelectField label={`Item ${i + 1} product`} value={it.productId} onChange={(e) => set(i, { productId: e.target.value })} required>
            <option value="">Choose a product…</option>
            {products.map((p) => (
              <option key={p.id} value={p.id}>{p.name}{p.strength ? ` ${p.strength}` : ''} ({p.sku})</option>
            ))}
          </SelectField>
          <Field label={`Item ${i + 1} quantity`} type="number" min={1} max={1000} value={it.quantity} onChange={(e) => set(i, { quantity: e.target.value })} required />
          <Field label={`Item ${i + 1} sig`} placeholder="Take 1 tablet daily" value={it.sig} onChange={(e) => set(i, { sig: e.target.value })} required maxLength={500} />
          <Field label={`Item ${i + 1} refills`} type="number" min={0} max={12} value={it.refills} onChange={(e) => set(i, { refills: e.target.value })} required />
          <button type="button" disabled={lines.length === 1} onClick={() => onChange(lines.filter((_, j) => j !== i))} className="pb-2 text-sm text-red-700 hover:underline disabled:text-slate-300">
            Remove<span className="sr-only"> item {i + 1}</span>
          </button>
        </div>
      ))}
      <button type="button" disabled={lines.length >= 50} onClick={() => onChange([...lines, newLine()])} className="text-sm font-medium text-indigo-700 hover:underline">
        Add item
      </button>
      {children}
    </fieldset>
  );
}
