'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal, FieldMessage } from './catalog-errors';
import { LIST_INPUT } from './catalog-types';
import { BusyButton, card, StatusBadge } from './catalog-ui';
import { Field } from '../ui/field';
import { newLine, PrescriptionLines, toLines, type DraftLine } from '../orders/prescription-lines';
import { Loading, QueryError } from '../ui/query-state';

export function CatalogProtocolsManager() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const protocols = useQuery(trpc.protocols.listProtocols.queryOptions(LIST_INPUT));
  const products = useQuery(trpc.products.listProducts.queryOptions(LIST_INPUT));
  const names = new Map((products.data ?? []).map((p) => [p.id, p]));
  const offered = (products.data ?? []).filter((p) => p.active);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [items, setItems] = useState<DraftLine[]>([newLine()]);
  const create = useMutation(
    trpc.protocols.createProtocol.mutationOptions({
      onSuccess: () => {
        setName('');
        setDescription('');
        setItems([newLine()]);
        return qc.invalidateQueries({ queryKey: trpc.protocols.listProtocols.queryKey() });
      },
    }),
  );

  function submit(e: React.FormEvent) {
    e.preventDefault();
    create.mutate({ name, ...(description.trim() ? { description: description.trim() } : {}), items: toLines(items) });
  }

  return (
    <div className="space-y-4">
      {protocols.isPending && <Loading label="Loading protocols…" />}
      {protocols.isError && <QueryError error={protocols.error} title="The protocols could not be read." />}
      {protocols.data && (
        <ul className="space-y-3">
          {protocols.data.map((p) => (
            <li key={p.id} data-testid="protocol-row" className={`${card} text-sm`}>
              <div className="flex flex-wrap items-center gap-3">
                <span className="break-words font-medium">{p.name}</span>
                <StatusBadge status={p.active ? 'active' : 'inactive'} />
                {p.description && <span className="min-w-0 break-words text-slate-500">{p.description}</span>}
              </div>
              <ul className="mt-2 space-y-1 text-slate-700">
                {p.items.map((it, i) => (
                  <li key={i} className="break-words">
                    <span className="font-medium">{names.get(it.productId)?.name ?? it.productId}</span> × {it.quantity} · {it.sig} · {it.refills} refill{it.refills === 1 ? '' : 's'}
                  </li>
                ))}
              </ul>
            </li>
          ))}
          {protocols.data.length === 0 && <li className="text-sm text-slate-500">No protocols yet.</li>}
        </ul>
      )}

      <form onSubmit={submit} className={`${card} space-y-4`} aria-labelledby="new-protocol">
        <h3 id="new-protocol" className="font-semibold">New protocol</h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Field label="Protocol name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
            <FieldMessage error={create.error} field="name" />
          </div>
          <div>
            <Field label="Protocol description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={2000} />
            <FieldMessage error={create.error} field="description" />
          </div>
        </div>
        <PrescriptionLines legend="Items" testId="protocol-item-draft" lines={items} onChange={setItems} products={offered} />
        {products.isSuccess && offered.length === 0 && <p className="text-sm text-slate-500">Create an active product first.</p>}
        <ApiRefusal error={create.error} fields={['name', 'description']} />
        <BusyButton type="submit" busy={create.isPending} busyLabel="Creating…" disabled={offered.length === 0}>Create protocol</BusyButton>
      </form>
      {create.data && !create.isPending && <p role="status" className="break-words text-sm text-emerald-800">Created protocol {create.data.name}.</p>}
    </div>
  );
}
