'use client';

import { useEffect, useMemo, useState } from 'react';
import { apiCall } from './api-client';
import type { Product } from './catalog-types';
import { card, ErrorAlert, formatCents, formatDays, SelectField, tableHead, type ApiErrorBody } from './catalog-ui';
import type { Patient } from './patient-types';
import type { Pharmacy } from './pharmacy-types';
import type { RoutedLine, RoutingIneligible, RoutingPlan, UnfillableLine } from './routing-types';

const DEBOUNCE_MS = 300;

const productLabel = (p: Product) => `${p.name}${p.strength ? ` ${p.strength}` : ''} (${p.sku})`;

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
  const [pins, setPins] = useState<Record<string, string>>({});
  const [patientId, setPatientId] = useState('');
  const [state, setState] = useState('');
  const [plan, setPlan] = useState<RoutingPlan>();
  const [error, setError] = useState<ApiErrorBody>();
  const [planning, setPlanning] = useState(false);
  const byId = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);

  const request = useMemo(() => {
    if (selected.length === 0) return null;
    return {
      items: selected.map((productId) => ({ productId, ...(pins[productId] ? { manualConnectionId: pins[productId] } : {}) })),
      ...(patientId ? { patientId } : state ? { patientState: state } : {}),
    };
  }, [selected, pins, patientId, state]);

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

  const rows: (RoutedLine | UnfillableLine)[] = plan ? [...plan.lines, ...plan.unfillable].sort((a, b) => a.index - b.index) : [];

  return (
    <section className={`${card} space-y-4`} aria-labelledby="plan-preview">
      <div>
        <h2 id="plan-preview" className="font-semibold">Live plan preview</h2>
        <p className="text-sm text-slate-600">How an order of these products would be routed under the saved policy. Nothing is created.</p>
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
          {selected.length > 0 && (
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-slate-700">Pin a line to a pharmacy (optional)</legend>
              {selected.map((id) => (
                <SelectField key={id} label={`Pin ${byId.get(id)?.name ?? id}`} value={pins[id] ?? ''} onChange={(e) => setPins({ ...pins, [id]: e.target.value })}>
                  <option value="">Policy decides</option>
                  {pharmacies.map((ph) => (
                    <option key={ph.id} value={ph.id}>{ph.name}</option>
                  ))}
                </SelectField>
              ))}
            </fieldset>
          )}
        </div>
      </div>

      <div aria-busy={planning} className="space-y-3 border-t border-slate-100 pt-4">
        {!request && <p className="text-sm text-slate-500">Choose at least one product to preview its routing.</p>}
        {planning && <p className="text-sm text-slate-500" data-testid="plan-planning">Planning…</p>}
        {error && <ErrorAlert error={error} />}
        {plan && !planning && (
          <>
            <p role="status" data-testid="plan-summary" className="text-sm text-slate-800">
              {plan.lines.length} of {plan.lines.length + plan.unfillable.length} line{plan.lines.length + plan.unfillable.length === 1 ? '' : 's'} routed ·
              total {formatCents(plan.totalPriceCents)} · strategy {plan.strategy} ·{' '}
              {plan.stateChecked ? `state ${plan.patientState} checked` : plan.patientState ? `state ${plan.patientState} not checked (policy)` : 'no state check'}
            </p>
            <ol className="space-y-3">
              {rows.map((row) => (
                <li key={row.index}>
                  {'chosen' in row ? <RoutedLineCard line={row} product={byId.get(row.productId)} /> : <UnfillableCard line={row} product={byId.get(row.productId)} />}
                </li>
              ))}
            </ol>
          </>
        )}
      </div>
    </section>
  );
}

function RoutedLineCard({ line, product }: { line: RoutedLine; product?: Product }) {
  const c = line.chosen;
  return (
    <article data-testid="plan-line" className="rounded-md border border-emerald-200 bg-emerald-50/40 p-3 text-sm">
      <header className="flex flex-wrap items-baseline gap-x-3">
        <h3 className="font-semibold">{product ? productLabel(product) : line.productId}</h3>
        <span className="rounded bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-800">{line.reason}</span>
      </header>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 sm:grid-cols-5">
        <div><dt className="text-xs text-slate-500">Pharmacy</dt><dd data-testid="plan-chosen" className="font-medium">{c.name}</dd></div>
        <div><dt className="text-xs text-slate-500">Price</dt><dd data-testid="plan-price">{formatCents(c.priceCents)}</dd></div>
        <div><dt className="text-xs text-slate-500">ETA</dt><dd data-testid="plan-eta">{formatDays(c.etaDays)}</dd></div>
        <div><dt className="text-xs text-slate-500">Stock</dt><dd>{c.stock}</dd></div>
        <div><dt className="text-xs text-slate-500">Item code</dt><dd className="font-mono">{c.itemCode}</dd></div>
      </dl>
      <p data-testid="plan-explanation" className="mt-2 text-slate-700">{line.explanation}</p>
      {line.alternatives.length > 0 && (
        <table className="mt-2 w-full text-left text-xs">
          <caption className="text-left font-medium text-slate-600">Alternatives</caption>
          <thead className={tableHead}>
            <tr><th>Rank</th><th>Pharmacy</th><th>Price</th><th>ETA</th><th>Stock</th></tr>
          </thead>
          <tbody>
            {line.alternatives.map((a) => (
              <tr key={a.connectionId} data-testid="plan-alternative" className="border-t border-slate-100">
                <td>{a.rank}</td>
                <td>{a.name}</td>
                <td>{formatCents(a.priceCents)}</td>
                <td>{formatDays(a.etaDays)}</td>
                <td>{a.stock}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <IneligibleList items={line.ineligible} />
    </article>
  );
}

function UnfillableCard({ line, product }: { line: UnfillableLine; product?: Product }) {
  return (
    <article data-testid="plan-unfillable" className="rounded-md border border-red-200 bg-red-50/50 p-3 text-sm">
      <header className="flex flex-wrap items-baseline gap-x-3">
        <h3 className="font-semibold">{product ? productLabel(product) : line.productId}</h3>
        <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">Unfillable: {line.reason}</span>
      </header>
      <p className="mt-2 text-slate-700">{line.explanation.replace(/`/g, '')}</p>
      <IneligibleList items={line.ineligible} />
    </article>
  );
}

function IneligibleList({ items }: { items: RoutingIneligible[] }) {
  if (items.length === 0) return null;
  return (
    <div className="mt-2">
      <p className="text-xs font-medium text-slate-600">Not eligible</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs text-slate-700">
        {items.map((i) => (
          <li key={i.connectionId} data-testid="plan-ineligible">
            <span className="font-medium">{i.name}</span>: {i.explanation} <span className="text-slate-400">({i.reason})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
