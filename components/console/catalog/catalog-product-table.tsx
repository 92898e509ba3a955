'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal } from './catalog-errors';
import type { Product } from './catalog-types';
import { BusyButton, StatusBadge, tableHead } from './catalog-ui';
import { IdChip } from '../ui/copy-button';
import { TableScroll } from '../ui/data-table';

export function CatalogProductTable({ products }: { products: Product[] }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toggle = useMutation(
    trpc.products.updateProduct.mutationOptions({
      onSuccess: () => qc.invalidateQueries({ queryKey: trpc.products.listProducts.queryKey() }),
    }),
  );
  const busyId = toggle.isPending ? toggle.variables?.id : undefined;

  return (
    <div className="space-y-2">
      <ApiRefusal error={toggle.error} />
      <TableScroll label="Products">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Products</caption>
          <thead className={tableHead}>
            <tr>
              <th className="px-4 py-2">Name</th>
              <th className="px-3 py-2">SKU</th>
              <th className="px-3 py-2">Form</th>
              <th className="px-3 py-2">Strength</th>
              <th className="px-3 py-2">NDC / RxCUI</th>
              <th className="px-3 py-2">Rx</th>
              <th className="px-3 py-2">Status</th>
              <th className="px-3 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {products.map((p) => (
              <tr key={p.id} data-testid="product-row" className="border-t border-slate-100 align-top">
                <td className="max-w-xs px-4 py-2">
                  <span className="block break-words font-medium">{p.name}</span>
                  <IdChip id={p.id} />
                </td>
                <td className="whitespace-nowrap px-3 py-2 font-mono">{p.sku}</td>
                <td className="px-3 py-2">{p.form}</td>
                <td className="px-3 py-2">{p.strength ?? '—'}</td>
                <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{p.ndc || p.rxcui ? [p.ndc ?? '—', p.rxcui ?? '—'].join(' / ') : '—'}</td>
                <td className="px-3 py-2">{p.rxRequired ? 'Rx' : 'OTC'}</td>
                <td className="px-3 py-2"><StatusBadge status={p.active ? 'active' : 'inactive'} /></td>
                <td className="px-3 py-2 text-right">
                  <BusyButton
                    variant="secondary"
                    busy={busyId === p.id}
                    disabled={toggle.isPending}
                    onClick={() => toggle.mutate({ id: p.id, active: !p.active })}
                    aria-label={`${p.active ? 'Deactivate' : 'Activate'} ${p.name}`}
                  >
                    {p.active ? 'Deactivate' : 'Activate'}
                  </BusyButton>
                </td>
              </tr>
            ))}
            {products.length === 0 && (
              <tr>
                <td colSpan={8} className="px-4 py-3 text-slate-500">No products yet.</td>
              </tr>
            )}
          </tbody>
        </table>
      </TableScroll>
    </div>
  );
}
