'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { BusyButton, card, SelectField } from '../catalog/catalog-ui';
import { useOrdersChanged } from './order-data';
import type { Order } from './order-types';
import { newLine, PrescriptionLines, toLines, type DraftLine } from './prescription-lines';
import { errorParam, Loading, QueryError } from '../ui/query-state';
import { orderStatusWords } from '../ui/status-words';

/**
 * "New order": products with quantity, sig and refills, and the patient. Products and patients are read
 * when the form is opened, not with the page: listing patients is a logged read of each record.
 */
export function OrderCreateForm({ mode, readsPatients }: { mode: string; readsPatients: boolean }) {
  const trpc = useTRPC();
  const changed = useOrdersChanged();
  const [open, setOpen] = useState(false);
  const [patientId, setPatientId] = useState('');
  const [priority, setPriority] = useState<'routine' | 'urgent'>('routine');
  const [items, setItems] = useState<DraftLine[]>([newLine()]);
  const [created, setCreated] = useState<Order>();
  const products = useQuery({ ...trpc.products.listProducts.queryOptions({}), enabled: open });
  const patients = useQuery({ ...trpc.patients.listPatients.queryOptions({}), enabled: open && readsPatients });
  const create = useMutation(
    trpc.orders.createOrder.mutationOptions({
      onSuccess: (order) => {
        setCreated(order);
        setOpen(false);
        setPatientId('');
        setPriority('routine');
        setItems([newLine()]);
        return changed();
      },
    }),
  );

  function submit(e: React.FormEvent) {
    e.preventDefault();
    create.mutate({ items: toLines(items), ...(patientId ? { patientId } : {}), priority });
  }

  const active = (products.data ?? []).filter((p) => p.active);
  const badField = create.isError ? errorParam(create.error) : undefined;
  return (
    <div className="space-y-3">
      {!open && (
        <BusyButton
          onClick={() => {
            setOpen(true);
            setCreated(undefined);
            create.reset();
          }}
        >
          New order
        </BusyButton>
      )}
      {created && (
        <p role="status" data-testid="order-created" className="text-sm break-words text-emerald-800">
          Created order{' '}
          <Link href={`/orders/${created.id}`} className="font-mono font-medium text-indigo-700 hover:underline">{created.id}</Link>
          : {created.status === 'draft' ? 'a draft (choose the patient or confirm its flagged fields to send it for approval)' : orderStatusWords(created.status)}.
        </p>
      )}
      {open && (
        <form onSubmit={submit} className={`${card} space-y-4`} aria-labelledby="new-order">
          <div className="flex items-center gap-3">
            <h2 id="new-order" className="font-semibold">New order</h2>
            <button type="button" onClick={() => setOpen(false)} className="ml-auto text-sm text-slate-600 hover:underline">Close</button>
          </div>
          {products.isPending ? (
            <Loading label="Loading products and patients…" />
          ) : products.isError ? (
            <QueryError error={products.error} title="Products cannot be listed, so orders cannot be put together here." />
          ) : (
            <>
              <div className="grid gap-4 sm:grid-cols-2">
                {!readsPatients ? (
                  <p className="text-sm text-slate-600">Your role does not read patients: the order is saved as a draft for someone who does.</p>
                ) : patients.isPending ? (
                  <Loading label="Loading patients…" />
                ) : patients.isError ? (
                  <QueryError error={patients.error} title="Patients could not be listed; the order is saved as a draft." />
                ) : (
                  <div>
                    <SelectField label="Patient" value={patientId} onChange={(e) => setPatientId(e.target.value)}>
                      <option value="">No patient yet (saved as a draft)</option>
                      {patients.data.map((p) => (
                        <option key={p.id} value={p.id}>
                          {p.lastName}, {p.firstName} ({p.dateOfBirth}{p.address ? `, ${p.address.state}` : ''})
                        </option>
                      ))}
                    </SelectField>
                    {badField === 'patientId' && <QueryError error={create.error} />}
                  </div>
                )}
                <SelectField label="Priority" value={priority} onChange={(e) => setPriority(e.target.value as 'routine' | 'urgent')}>
                  <option value="routine">Routine</option>
                  <option value="urgent">Urgent</option>
                </SelectField>
              </div>
              <PrescriptionLines legend="Prescriptions" testId="order-item-draft" lines={items} onChange={setItems} products={active}>
                {active.length === 0 && <p className="text-sm text-slate-500">No active products in {mode}: create one on the Products page first.</p>}
              </PrescriptionLines>
              {create.isError && badField !== 'patientId' && <QueryError error={create.error} title="The order was not created." />}
              <BusyButton type="submit" busy={create.isPending} busyLabel="Creating…" disabled={active.length === 0}>Create order</BusyButton>
            </>
          )}
        </form>
      )}
    </div>
  );
}
