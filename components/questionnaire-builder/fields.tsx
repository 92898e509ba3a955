'use client';

import { useId, type ReactNode } from 'react';
import { FieldProblems, useInvalid } from './problems';

/** The builder's labelled controls: each shows the validator's problems for its field beneath it. */

export const control =
  'mt-1 block w-full min-w-0 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none aria-[invalid=true]:border-red-600';

interface Pinned {
  /** The editor element and field whose problems show here. */
  uid: string;
  field: string;
}

function Label({ id, label, hint, optional }: { id: string; label: string; hint?: string; optional?: boolean }) {
  return (
    <>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {optional && <span className="font-normal text-slate-500"> (optional)</span>}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
    </>
  );
}

export function TextInput({
  label,
  value,
  onChange,
  hint,
  optional,
  multiline,
  maxLength,
  inputMode,
  type = 'text',
  className,
  ...pin
}: Pinned & {
  label: string;
  value: string;
  onChange: (v: string) => void;
  hint?: string;
  optional?: boolean;
  multiline?: boolean;
  maxLength?: number;
  inputMode?: 'decimal' | 'text';
  type?: 'text' | 'date';
  className?: string;
}) {
  const id = useId();
  const aria = useInvalid(pin.uid, pin.field, hint ? `${id}-hint` : undefined);
  return (
    <div className={`min-w-0 ${className ?? ''}`}>
      <Label id={id} label={label} hint={hint} optional={optional} />
      {multiline ? (
        <textarea id={id} rows={2} value={value} maxLength={maxLength} onChange={(e) => onChange(e.target.value)} className={control} {...aria} />
      ) : (
        <input id={id} type={type} value={value} maxLength={maxLength} inputMode={inputMode} onChange={(e) => onChange(e.target.value)} className={control} {...aria} />
      )}
      <FieldProblems {...pin} />
    </div>
  );
}

export function SelectInput({ label, value, onChange, hint, children, className, ...pin }: Pinned & { label: string; value: string; onChange: (v: string) => void; hint?: string; children: ReactNode; className?: string }) {
  const id = useId();
  const aria = useInvalid(pin.uid, pin.field, hint ? `${id}-hint` : undefined);
  return (
    <div className={`min-w-0 ${className ?? ''}`}>
      <Label id={id} label={label} hint={hint} />
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={control} {...aria}>
        {children}
      </select>
      <FieldProblems {...pin} />
    </div>
  );
}

/** A small secondary button; `name` completes its accessible name (“Remove” → “Remove question 3”). */
export function SmallButton({ children, name, onClick, disabled, tone = 'plain' }: { children: ReactNode; name?: string; onClick: () => void; disabled?: boolean; tone?: 'plain' | 'danger' }) {
  const colours = tone === 'danger' ? 'border-red-300 text-red-700 hover:bg-red-50' : 'border-slate-300 text-slate-700 hover:bg-slate-50';
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      className={`rounded-md border bg-white px-2.5 py-1 text-sm font-medium shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50 ${colours}`}
    >
      {children}
      {name && <span className="sr-only"> {name}</span>}
    </button>
  );
}
