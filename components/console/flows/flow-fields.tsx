'use client';

import { useId } from 'react';

const control =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';

/** A labelled text box of the editor; an optional field left empty is removed from the document, not sent empty. */
export function CopyField({
  label,
  value,
  onChange,
  multiline,
  optional,
  maxLength,
  hint,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string) => void;
  multiline?: boolean;
  optional?: boolean;
  maxLength?: number;
  hint?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {optional && <span className="font-normal text-slate-500"> (optional)</span>}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {multiline ? (
        <textarea id={id} rows={3} value={value ?? ''} maxLength={maxLength} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(e) => onChange(e.target.value)} className={control} />
      ) : (
        <input id={id} value={value ?? ''} maxLength={maxLength} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(e) => onChange(e.target.value)} className={control} />
      )}
    </div>
  );
}

/** Sets an optional copy field: empty text removes it. */
export function withOptional<T extends object, K extends keyof T>(obj: T, key: K, text: string): T {
  const next = { ...obj };
  if (text === '') delete next[key];
  else next[key] = text as T[K];
  return next;
}

/** The mark every clinical step carries: changing it waits for a provider. */
export function ClinicalBadge() {
  return (
    <span data-testid="clinical-badge" className="inline-flex items-center gap-1 rounded bg-rose-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-rose-900">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3 w-3" fill="currentColor">
        <path d="M10 2a4 4 0 0 0-4 4v2H5a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1V9a1 1 0 0 0-1-1h-1V6a4 4 0 0 0-4-4Zm-2 6V6a2 2 0 1 1 4 0v2H8Z" />
      </svg>
      Clinical — needs provider approval
    </span>
  );
}
