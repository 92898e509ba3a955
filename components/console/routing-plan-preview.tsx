'use client';

import { useEffect, useMemo, useState } from 'react';
import { apiCall } from './api-client';
import type { Product } from './catalog-types';
import { card, ErrorAlert, SelectField, type ApiErrorBody } from './catalog-ui';
import type { Patient } from './patient-types';
import type { Pharmacy } from './pharmacy-types';
import { productLabel, RoutingPlanResult } from './routing-plan-result';
import type { RoutingPlan } from './routing-types';

const DEBOUNCE_MS = 300;

export function RoutingPlanPreview({
  products,
  pharmacies,
  patients,
  patientsRefused,
  usStates,
  policyVersion,
  token,
  mode,
}: {
  products: Product[];
  pharmacies: Pharmacy[];
  patients: Patient[];
  patientsRefused?: string;
  usStates: readonly string[];
  policyVersion: number;
  token: string;
  mode: string;
}) {
  const [selected, setSelected] = useState<string[]>([]);
  const [pin, setPin] = useState('');
  const [patientId, setPatientId] = useState('');
  const [state, setState] = useState('');
  const [plan, setPlan] = useState<RoutingPlan>();
  const [error, setError] = useState<ApiErrorBody>();
  const [planning, setPlanning] = useState(false);
  const byId = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);

  const request = useMemo(() => {
    if (selected.length === 0) return null;
    return {
      // An order goes whole to one pharmacy, so a pin applies to every line.
      items: selected.map((productId) => ({ productId, ...(pin ? { manualConnectionId: pin } : {}) })),
      ...(patientId ? { patientId } : state ? { patientState: state } : {}),
    };
  }, [selected, pin, patientId, state]);

  // Re-plans on every change, once the choices have been still for DEBOUNCE_MS; a newer change drops the older answer.
  useEffect(() => {
    if (!request) {
      setPlan(undefined);
      setError(undefined);
      setPlanning(false);
      return;
    }
    let stale = false;
    setPlanning(true);
    const timer = setTimeout(async () => {
      const res = await apiCall<RoutingPlan>('POST', '/orders/routing/plan', request, { token, mode });
      if (stale) return;
      setPlanning(false);
      if (res.ok) {
        setPlan(res.data);
        setError(undefined);
      } else {
        setPlan(undefined);
        setError(res.error ?? { message: 'The plan could not be computed.' });
      }
    }, DEBOUNCE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [request, policyVersion, token, mode]);

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
                {!p.active && <span className="text-xs text-slate-400">inactive</span>}
              </label>
            ))}
            {products.length === 0 && <p className="text-sm text-slate-500">No products yet.</p>}
          </div>
        </fieldset>
        <div className="space-y-3">
          <SelectField label="Patient" value={patientId} onChange={(e) => setPatientId(e.target.value)} disabled={!!patientsRefused}>
            <option value="">No patient</option>
            {patients.map((p) => (
              <option key={p.id} value={p.id}>
                {p.lastName}, {p.firstName} · {p.address?.state ?? 'no address'}
              </option>
            ))}
          </SelectField>
          {patientsRefused && <p className="text-xs text-slate-500">Patients unavailable: {patientsRefused}</p>}
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

      <div aria-busy={planning} className="space-y-3 border-t border-slate-100 pt-4">
        {!request && <p className="text-sm text-slate-500">Choose at least one product to preview its routing.</p>}
        {planning && <p className="text-sm text-slate-500" data-testid="plan-planning">Planning…</p>}
        {error && <ErrorAlert error={error} />}
        {plan && !planning && <RoutingPlanResult plan={plan} label={label} />}
      </div>
    </section>
  );
}
