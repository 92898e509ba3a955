'use client';

import { useState } from 'react';
import { FLOW_STEP_KINDS, type FlowStepKind, type FlowStepShape } from '@/server/domain/flows/shared/shapes';
import { BusyButton } from '../catalog/catalog-ui';
import { ClinicalBadge } from './flow-fields';
import { stepHeading } from '@/server/domain/flows/shared/shapes';
import { addStep, isClinical, KIND_LABEL, moveStep, newStep } from './flow-steps';

/**
 * The flow's steps in order: pick one to edit, move it, remove it, add one. Clinical steps carry their badge
 * here too, so reordering around them shows what is locked behind a provider's approval.
 */
export function StepList({
  steps,
  selected,
  invalid,
  onSelect,
  onChange,
}: {
  steps: readonly FlowStepShape[];
  selected: number;
  invalid?: number;
  onSelect: (index: number) => void;
  onChange: (steps: FlowStepShape[], selected: number) => void;
}) {
  const [kind, setKind] = useState<FlowStepKind>('landing');
  return (
    <div className="space-y-3">
      <ol className="space-y-2" aria-label="Steps" data-testid="step-list">
        {steps.map((step, i) => (
          <li
            key={`${step.id}-${i}`}
            data-testid="flow-step"
            data-invalid={invalid === i || undefined}
            className={`rounded-md border p-2 text-sm ${invalid === i ? 'border-red-400 bg-red-50' : i === selected ? 'border-indigo-400 bg-indigo-50' : 'border-slate-200 bg-white'}`}
          >
            <button type="button" onClick={() => onSelect(i)} aria-current={i === selected ? 'step' : undefined} className="block w-full min-w-0 text-left">
              <span className="flex flex-wrap items-center gap-2">
                <span className="font-medium text-slate-900">
                  {i + 1}. {KIND_LABEL[step.kind]}
                </span>
                <code className="font-mono text-xs text-slate-600">{step.id}</code>
                {isClinical(step) && <ClinicalBadge />}
                {invalid === i && <span className="text-xs font-semibold text-red-800">Not saved: see the error below</span>}
              </span>
              <span className="mt-0.5 block truncate text-slate-600">{stepHeading(step)}</span>
            </button>
            <div className="mt-2 flex flex-wrap gap-1">
              <BusyButton variant="secondary" disabled={i === 0} onClick={() => onChange(moveStep(steps, i, i - 1), i - 1)}>
                Up<span className="sr-only"> {step.id}</span>
              </BusyButton>
              <BusyButton variant="secondary" disabled={i === steps.length - 1} onClick={() => onChange(moveStep(steps, i, i + 1), i + 1)}>
                Down<span className="sr-only"> {step.id}</span>
              </BusyButton>
              <BusyButton
                variant="danger"
                disabled={steps.length === 1}
                onClick={() => onChange(steps.filter((_, j) => j !== i), Math.max(0, Math.min(selected, steps.length - 2)))}
              >
                Remove<span className="sr-only"> {step.id}</span>
              </BusyButton>
            </div>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-end gap-2">
        <label className="block text-sm font-medium text-slate-700">
          New step
          <select
            value={kind}
            onChange={(e) => setKind(e.target.value as FlowStepKind)}
            className="mt-1 block rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
          >
            {FLOW_STEP_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
                {['medical', 'consent', 'contact'].includes(k) ? ' (clinical)' : ''}
              </option>
            ))}
          </select>
        </label>
        <BusyButton
          variant="secondary"
          onClick={() => {
            const step = newStep(kind, steps.map((s) => s.id));
            const next = addStep(steps, step);
            onChange(next, next.indexOf(step));
          }}
        >
          Add step
        </BusyButton>
      </div>
    </div>
  );
}
