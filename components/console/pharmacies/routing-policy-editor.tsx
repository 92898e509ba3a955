'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { ApiRefusal, FieldMessage } from '../catalog/catalog-errors';
import { BusyButton, card, CheckboxField, SelectField, StatusBadge } from '../catalog/catalog-ui';
import { formatDateTime } from '../ui/format';
import type { Pharmacy, RoutingPolicy, RoutingStrategy } from './pharmacy-types';

const STRATEGIES: { value: RoutingStrategy; label: string }[] = [
  { value: 'lowest_cost', label: 'Lowest cost: the cheapest qualifying pharmacy' },
  { value: 'fastest', label: 'Fastest: the shortest delivery estimate' },
  { value: 'priority', label: 'Priority: the first qualifying pharmacy of the list below' },
];

/** The policy's priority list first (as saved), then connections it does not name yet. */
function initialOrder(policy: RoutingPolicy, pharmacies: Pharmacy[]) {
  const known = new Set(pharmacies.map((p) => p.id));
  const listed = policy.priority.filter((id) => known.has(id));
  return [...listed, ...pharmacies.map((p) => p.id).filter((id) => !listed.includes(id))];
}

export function RoutingPolicyEditor({
  policy,
  pharmacies,
  onSaved,
}: {
  policy: RoutingPolicy;
  pharmacies: Pharmacy[];
  onSaved: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const byId = new Map(pharmacies.map((p) => [p.id, p]));
  const [strategy, setStrategy] = useState(policy.strategy);
  const [order, setOrder] = useState(() => initialOrder(policy, pharmacies));
  const [requireStateLicense, setRequireStateLicense] = useState(policy.requireStateLicense);
  const [allowFallback, setAllowFallback] = useState(policy.allowFallback);
  const [saved, setSaved] = useState<string>();
  const save = useMutation(
    trpc.pharmacies.setRoutingPolicy.mutationOptions({
      onMutate: () => setSaved(undefined),
      onSuccess: (answer) => {
        setSaved(`Routing policy saved (${formatDateTime(answer.updatedAt)}).`);
        onSaved();
        return qc.invalidateQueries({ queryKey: trpc.pharmacies.getRoutingPolicy.queryKey() });
      },
    }),
  );

  function move(index: number, by: -1 | 1) {
    const next = [...order];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    setOrder(next);
    setSaved(undefined);
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    save.mutate({ strategy, priority: order, requireStateLicense, allowFallback });
  }

  return (
    <form onSubmit={submit} className={`${card} space-y-4`} aria-labelledby="routing-policy">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 id="routing-policy" className="font-semibold">Routing policy</h2>
        <span className="text-xs text-slate-500">{policy.updatedAt ? `Last changed ${formatDateTime(policy.updatedAt)}` : 'Defaults (never changed)'}</span>
      </div>
      <SelectField
        label="Strategy"
        value={strategy}
        onChange={(e) => {
          setStrategy(e.target.value as RoutingStrategy);
          setSaved(undefined);
        }}
      >
        {STRATEGIES.map((s) => (
          <option key={s.value} value={s.value}>{s.label}</option>
        ))}
      </SelectField>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Priority order {strategy === 'priority' ? '' : '(breaks ties)'}</legend>
        <ol className="mt-2 space-y-1" aria-label="Priority order">
          {order.map((id, i) => {
            const p = byId.get(id)!;
            return (
              <li key={id} data-testid="priority-item" className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border border-slate-100 px-3 py-1.5 text-sm">
                <span className="w-5 text-right text-slate-500">{i + 1}.</span>
                <span className="min-w-0 break-words font-medium">{p.name}</span>
                <StatusBadge status={p.status} />
                <span className="text-xs text-slate-500">{p.states.join(', ')}</span>
                <span className="ml-auto flex gap-1">
                  <button type="button" onClick={() => move(i, -1)} disabled={i === 0} aria-label={`Move ${p.name} up`} className="rounded border border-slate-300 px-2 text-slate-700 disabled:opacity-30">↑</button>
                  <button type="button" onClick={() => move(i, 1)} disabled={i === order.length - 1} aria-label={`Move ${p.name} down`} className="rounded border border-slate-300 px-2 text-slate-700 disabled:opacity-30">↓</button>
                </span>
              </li>
            );
          })}
          {order.length === 0 && <li className="text-sm text-slate-500">No pharmacies connected yet.</li>}
        </ol>
      </fieldset>
      <div className="space-y-2">
        <CheckboxField
          label="Require a state license: only pharmacies that ship to the patient's state qualify"
          checked={requireStateLicense}
          onChange={(e) => {
            setRequireStateLicense(e.target.checked);
            setSaved(undefined);
          }}
        />
        <CheckboxField
          label="Allow fallback: a pinned line its pharmacy cannot fill goes to the policy's choice"
          checked={allowFallback}
          onChange={(e) => {
            setAllowFallback(e.target.checked);
            setSaved(undefined);
          }}
        />
      </div>
      <FieldMessage error={save.error} field="priority" />
      <ApiRefusal error={save.error} fields={['priority']} />
      {saved && <p role="status" data-testid="routing-policy-status" className="text-sm text-emerald-800">{saved}</p>}
      <BusyButton type="submit" busy={save.isPending} busyLabel="Saving…">Save policy</BusyButton>
    </form>
  );
}
