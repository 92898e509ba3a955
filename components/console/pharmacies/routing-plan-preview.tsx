'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal } from '../catalog/catalog-errors';
import type { Product } from '../catalog/catalog-types';
import { card, SelectField } from '../catalog/catalog-ui';
import type { Pharmacy } from './pharmacy-types';
import { QueryError } from '../ui/query-state';
import { productLabel, RoutingPlanResult } from './routing-plan-result';

const DEBOUNCE_MS = 300;
const PATIENTS_INPUT = { limit: 100 } as const;

export function RoutingPlanPreview({
  products,
  pharmacies,
  usStates,
  canReadPatients,
  policyVersion,
}: {
  products: Product[];
  pharmacies: Pharmacy[];
  usStates: readonly string[];
  canReadPatients: boolean;
  policyVersion: number;
}) {
  const trpc = useTRPC();
  const patientList = useQuery({ ...trpc.patients.listPatients.queryOptions(PATIENTS_INPUT), enabled: canReadPatients });
  const patients = patientList.data ?? [];
  // A newer plan request supersedes an older one: the mutation shows only the latest call's answer.
  const planner = useMutation(trpc.orders.planRouting.mutationOptions());
  const { mutate: plan, reset } = planner;
  const [selected, setSelected] = useState<string[]>([]);
  const [pin, setPin] = useState('');
  const [patientId, setPatientId] = useState('');
  const [state, setState] = useState('');
  const [waiting, setWaiting] = useState(false);
  const planning = waiting || planner.isPending;
  const byId = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);

  const request = useMemo(() => {
    if (selected.length === 0) return null;
    return {
      // An order goes whole to one pharmacy, so a pin applies to every line.
      items: selected.map((productId) => ({ productId, ...(pin ? { manualConnectionId: pin } : {}) })),
      ...(patientId ? { patientId } : state ? { patientState: state } : {}),
    };
  }, [selected, pin, patientId, state]);

  // Re-plans on every change, once the choices have been still for DEBOUNCE_MS.
  useEffect(() => {
    if (!request) {
      reset();
      setWaiting(false);
      return;
    }
    setWaiting(true);
    const timer = setTimeout(() => {
      setWaiting(false);
      plan(request);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [request, policyVersion, plan, reset]);

  function toggleProduct(id: string, on: boolean) {
    setSelected((s) => (on ? [...s, id] : s.filter((x) => x !== id)));
  }

  const label = (id: string) => {
    const p = byId.get(id);
    return p ? productLabel(p) : id;
  };

  return (
    <section className={`${card} space-y-4`} aria-labelledby="plan-preview">
      <div>
        <h2 id="plan-preview" className="font-semibold">Live plan preview</h2>
        <p className="text-sm text-slate-600">The pharmacy an order of these products would go to under the saved policy, and why: the same decision approval makes. Nothing is created.</p>
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Products</legend>
          <div className="mt-2 max-h-64 space-y-1 overflow-y-auto">
            {products.map((p) => (
              <label key={p.id} className="flex items-center gap-2 text-sm text-slate-700">
                <input type="checkbox" checked={selected.includes(p.id)} onChange={(e) => toggleProduct(p.id, e.target.checked)} />
                {productLabel(p)}
                {!p.active && <span className="text-xs text-slate-500">inactive</span>}
              </label>
            ))}
            {products.length === 0 && <p className="text-sm text-slate-500">No products yet.</p>}
          </div>
        </fieldset>
        <div className="space-y-3">
          <SelectField label="Patient" value={patientId} onChange={(e) => setPatientId(e.target.value)} disabled={!canReadPatients || patientList.isError}>
            <option value="">No patient</option>
            {patients.map((p) => (
              <option key={p.id} value={p.id}>
                {p.lastName}, {p.firstName} · {p.address?.state ?? 'no address'}
              </option>
            ))}
          </SelectField>
          {!canReadPatients && <p className="text-xs text-slate-500">Your role cannot read patients: preview by state instead.</p>}
          {patientList.isError && <QueryError error={patientList.error} title="Patients unavailable." />}
          <SelectField label="Patient state" value={patientId ? '' : state} onChange={(e) => setState(e.target.value)} disabled={!!patientId}>
            <option value="">{patientId ? "From the patient's address" : 'Unknown (no state check)'}</option>
            {usStates.map((s) => (
              <option key={s} value={s}>{s}</option>
            ))}
          </SelectField>
          <SelectField label="Pin the order to a pharmacy" value={pin} onChange={(e) => setPin(e.target.value)}>
            <option value="">Policy decides</option>
            {pharmacies.map((ph) => (
              <option key={ph.id} value={ph.id}>{ph.name}</option>
            ))}
          </SelectField>
        </div>
      </div>

      <div aria-busy={planning} className="min-w-0 space-y-3 border-t border-slate-100 pt-4">
        {!request && <p className="text-sm text-slate-500">Choose at least one product to preview its routing.</p>}
        {planning && <p className="text-sm text-slate-500" data-testid="plan-planning">Planning…</p>}
        {!planning && <ApiRefusal error={planner.error} />}
        {request && planner.data && !planning && <RoutingPlanResult plan={planner.data} label={label} />}
      </div>
    </section>
  );
}
