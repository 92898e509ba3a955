import type { Product } from '../catalog/catalog-types';
import { formatCents, formatDays, tableHead } from '../catalog/catalog-ui';
import { TableScroll } from '../ui/data-table';
import type { RoutingIneligible, RoutingPlan, UnfillableLine } from './routing-types';

export const productLabel = (p: Product) => `${p.name}${p.strength ? ` ${p.strength}` : ''} (${p.sku})`;
type Label = (productId: string) => string;

/** The plan's answer: the one pharmacy the whole order goes to and why, its lines there, and who else could (not). */
export function RoutingPlanResult({ plan, label }: { plan: RoutingPlan; label: Label }) {
  const ph = plan.pharmacy;
  return (
    <>
      <p role="status" data-testid="plan-summary" className="text-sm text-slate-800">
        {ph ? `Whole order to ${ph.name}` : 'No pharmacy can fill this order'} · total {formatCents(plan.totalPriceCents)} · strategy {plan.strategy} ·{' '}
        {plan.stateChecked ? `state ${plan.patientState} checked` : plan.patientState ? `state ${plan.patientState} not checked (policy)` : 'no state check'}
      </p>
      <article data-testid="plan-decision" className={`rounded-md border p-3 text-sm ${ph ? 'border-emerald-200 bg-emerald-50/40' : 'border-red-200 bg-red-50/50'}`}>
        <header className="flex flex-wrap items-baseline gap-x-3">
          <h3 data-testid="plan-chosen" className="font-semibold">{ph?.name ?? 'Not routable'}</h3>
          <span data-testid="plan-reason" className="rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800">{plan.reason}</span>
        </header>
        {ph && (
          <dl className="mt-2 grid grid-cols-3 gap-x-4">
            <div><dt className="text-xs text-slate-500">Order price</dt><dd data-testid="plan-price">{formatCents(ph.priceCents)}</dd></div>
            <div><dt className="text-xs text-slate-500">ETA (slowest line)</dt><dd data-testid="plan-eta">{formatDays(ph.etaDays)}</dd></div>
            <div><dt className="text-xs text-slate-500">Lowest stock</dt><dd>{ph.stock}</dd></div>
          </dl>
        )}
        <p data-testid="plan-explanation" className="mt-2 text-slate-700">{plan.explanation}</p>
        <p className="mt-1 text-xs text-slate-500">An order is never split: it goes whole to one pharmacy that can fill every line.</p>
      </article>
      {ph && <PlanLines plan={plan} label={label} />}
      {plan.alternatives.length > 0 && (
        <TableScroll label="Alternatives">
        <table className="w-full text-left text-xs [&_td]:px-2 [&_td]:py-1 [&_th]:px-2 [&_th]:py-1">
          <caption className="px-2 pt-1 text-left font-medium text-slate-600">Alternatives (can fill every line)</caption>
          <thead className={tableHead}>
            <tr><th>Rank</th><th>Pharmacy</th><th>Order price</th><th>ETA</th></tr>
          </thead>
          <tbody>
            {plan.alternatives.map((a) => (
              <tr key={a.connectionId} data-testid="plan-alternative" className="border-t border-slate-100">
                <td>{a.rank}</td><td>{a.name}</td><td>{formatCents(a.priceCents)}</td><td>{formatDays(a.etaDays)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        </TableScroll>
      )}
      <IneligibleList items={plan.ineligible} label={label} />
      {plan.unfillable.map((u) => <UnfillableCard key={u.index} line={u} label={label} />)}
    </>
  );
}

function PlanLines({ plan, label }: { plan: RoutingPlan; label: Label }) {
  return (
    <TableScroll label="Plan lines">
    <table className="w-full text-left text-xs [&_td]:px-2 [&_td]:py-1 [&_th]:px-2 [&_th]:py-1">
      <caption className="px-2 pt-1 text-left font-medium text-slate-600">Lines at {plan.pharmacy?.name}</caption>
      <thead className={tableHead}>
        <tr><th>Product</th><th>Qty</th><th>Item code</th><th>Unit</th><th>Line</th><th>ETA</th></tr>
      </thead>
      <tbody>
        {plan.lines.map((l) => (
          <tr key={l.index} data-testid="plan-line" className="border-t border-slate-100">
            <td>{label(l.productId)}</td>
            <td>{l.quantity}</td>
            <td className="font-mono">{l.fill?.itemCode ?? '—'}</td>
            <td>{l.fill ? formatCents(l.fill.unitPriceCents) : '—'}</td>
            <td>{l.fill ? formatCents(l.fill.priceCents) : '—'}</td>
            <td>{l.fill ? formatDays(l.fill.etaDays) : '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
    </TableScroll>
  );
}

function UnfillableCard({ line, label }: { line: UnfillableLine; label: Label }) {
  return (
    <article data-testid="plan-unfillable" className="rounded-md border border-red-200 bg-red-50/50 p-3 text-sm">
      <header className="flex flex-wrap items-baseline gap-x-3">
        <h3 className="font-semibold">{label(line.productId)}</h3>
        <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-medium text-red-800">Unfillable: {line.reason}</span>
      </header>
      <p className="mt-2 text-slate-700">{line.explanation}</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs text-slate-700">
        {line.ineligible.map((i) => (
          <li key={i.connectionId} data-testid="plan-line-ineligible">
            <span className="font-medium">{i.name}</span>: {i.explanation} <span className="text-slate-500">({i.reason})</span>
          </li>
        ))}
      </ul>
    </article>
  );
}

function IneligibleList({ items, label }: { items: RoutingIneligible[]; label: Label }) {
  if (items.length === 0) return null;
  return (
    <div>
      <p className="text-xs font-medium text-slate-600">Cannot fill the whole order</p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5 text-xs text-slate-700">
        {items.map((i) => (
          <li key={i.connectionId} data-testid="plan-ineligible">
            <span className="font-medium">{i.name}</span>: {i.explanation} <span className="text-slate-500">({i.reason})</span>
            {i.lines.length > 0 && <span> Cannot fill: {i.lines.map((l) => `${label(l.productId)} (${l.reason})`).join(', ')}.</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
