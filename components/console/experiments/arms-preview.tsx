'use client';

import { useState } from 'react';
import { isClinicalStep, stepHeading } from '@/server/domain/flows/shared/shapes';
import type { PreviewDocument } from './experiment-preview';
import { KIND_LABEL } from '../flows/flow-steps';
import { ThemePreview } from '../flows/theme-preview';

function Arm({ label, testId, doc, selected, onSelect }: { label: string; testId: string; doc: PreviewDocument; selected: string; onSelect: (id: string) => void }) {
  const step = doc.steps.find((s) => s.id === selected) ?? doc.steps[0];
  return (
    <section aria-label={label} data-testid={testId} className="min-w-0 space-y-3 rounded-lg border border-slate-200 bg-white p-4">
      <h3 className="font-semibold">{label}</h3>
      <ol className="space-y-1 text-sm">
        {doc.steps.map((s, i) => (
          <li key={s.id} data-testid="arm-step" data-step={s.id} data-locked={isClinicalStep(s) || undefined}>
            <button
              type="button"
              aria-pressed={s.id === step?.id}
              onClick={() => onSelect(s.id)}
              className={`flex w-full flex-wrap items-center gap-2 rounded px-2 py-1 text-left ${s.id === step?.id ? 'bg-indigo-50 text-slate-900' : 'text-slate-700 hover:bg-slate-50'}`}
            >
              <span>
                {i + 1}. {KIND_LABEL[s.kind]} “{s.id}”: {stepHeading(s)}
              </span>
              {isClinicalStep(s) && (
                <span data-testid="locked-badge" className="rounded bg-slate-200 px-1.5 py-0.5 text-xs text-slate-800">
                  🔒 Clinical: locked, identical in both arms
                </span>
              )}
            </button>
          </li>
        ))}
      </ol>
      <ThemePreview tokens={doc.theme.tokens} step={step} />
    </section>
  );
}

/** Both arms side by side, on the same step: the control as patients get it now, the variant with the overrides applied. */
export function ArmsPreview({ control, variant }: { control: PreviewDocument; variant: PreviewDocument }) {
  const [selected, setSelected] = useState(control.steps[0]?.id ?? '');
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Arm label="Control (the live version)" testId="arm-control" doc={control} selected={selected} onSelect={setSelected} />
      <Arm label="Variant (with the overrides)" testId="arm-variant" doc={variant} selected={selected} onSelect={setSelected} />
    </div>
  );
}
