'use client';

import { useEffect, useRef } from 'react';
import type { FieldErrors } from '@/components/intake/types';

/**
 * The list of a refused form's problems, as the questionnaire form shows them: announced (role=alert), focused
 * after each attempt, each linked to its field. `labels` names the fields; `form` is a problem of the whole form.
 */
export function ErrorSummary({ errors, labels, attempt, fieldId }: { errors: FieldErrors; labels: Record<string, string>; attempt: number; fieldId(name: string): string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (attempt > 0) box.current?.focus();
  }, [attempt]);
  const listed = Object.entries(errors);
  if (!listed.length) return null;
  return (
    <div ref={box} tabIndex={-1} role="alert" aria-labelledby="flow-error-title" className="mb-6 rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900 focus:outline-3 focus:outline-offset-2 focus:outline-red-700">
      <h2 id="flow-error-title" className="text-base font-semibold">
        There {listed.length === 1 ? 'is a problem' : `are ${listed.length} problems`} with your answers
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {listed.map(([name, message]) => (
          <li key={name}>
            {name === 'form' || !labels[name] ? (
              message
            ) : (
              <a href={`#${fieldId(name)}`} className="font-medium underline">
                {labels[name]} – {message}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export const primaryButton =
  'w-full rounded-[var(--nl-flow-radius,0.375rem)] bg-indigo-700 px-4 py-3 text-base font-semibold text-[var(--nl-flow-primary-contrast,#fff)] shadow-sm hover:bg-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:opacity-60';

/** A step's secondary action ("Back"): a plain outlined button under the primary one, in the flow's radius. */
export const secondaryButton =
  'w-full rounded-[var(--nl-flow-radius,0.375rem)] border border-slate-400 bg-white px-4 py-3 text-base font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:opacity-60';
