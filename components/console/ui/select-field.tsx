import type { SelectHTMLAttributes } from 'react';

/**
 * A labelled <select> styled like Field. The label points at the select rather than wrapping it, so the
 * select's accessible name is the label alone, not the label plus the chosen option.
 */
export function SelectField({ label, children, ...select }: { label: string; name: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = select.id ?? `select-${select.name}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        {...select}
        id={id}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
      >
        {children}
      </select>
    </div>
  );
}
