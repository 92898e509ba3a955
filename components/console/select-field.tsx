import type { SelectHTMLAttributes } from 'react';

/** A labelled <select> styled like Field. */
export function SelectField({ label, children, ...select }: { label: string } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <label className="block text-sm font-medium text-slate-700">
      {label}
      <select
        {...select}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none"
      >
        {children}
      </select>
    </label>
  );
}
