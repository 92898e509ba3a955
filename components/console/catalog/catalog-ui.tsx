import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { BusyButton } from '../ui/busy-button';
import { statusWords } from '../ui/status-words';

/** Small building blocks shared by the catalog, pharmacy, routing and patient pages (no hooks: server or client). */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
export const formatCents = (cents: number) => usd.format(cents / 100);
export const formatDays = (days: number) => (days === 1 ? '1 day' : `${days} days`);
/** UTC and locale-free, so a client component renders the same text on the server and in the browser. */
export const formatWhen = (iso: string | null) => (iso ? `${new Date(iso).toISOString().slice(0, 16).replace('T', ' ')} UTC` : '—');

export interface ApiErrorBody {
  code?: string;
  message: string;
  param?: string;
  details?: { line?: number; param?: string; message: string }[];
}

/** An API refusal: its message, then each detail on its own line ("Line 3: …" for a file's bad rows). */
export function ErrorAlert({ error, testId }: { error: ApiErrorBody; testId?: string }) {
  const details = error.details ?? [];
  return (
    <div role="alert" data-testid={testId} className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <p>{error.message}</p>
      {details.length > 0 && (
        <ul className="mt-1 list-disc space-y-0.5 pl-5">
          {details.map((d, i) => (
            <li key={i}>{d.line !== undefined ? `Line ${d.line}: ${d.message}` : d.param ? `${d.param}: ${d.message}` : d.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What a page says to a role without its scope: a plain sentence, not an error. */
export function NoAccess({ what, role }: { what: string; role: string }) {
  return (
    <p data-testid="no-access" className="rounded-md border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
      Your role ({role}) cannot {what}. Ask an owner or admin of this clinic if you need to.
    </p>
  );
}

/** A status in words (the API's value stays in data-status), coloured by what it means. */
export function StatusBadge({ status, words = statusWords }: { status: string; words?: (status: string) => string }) {
  const tone =
    status === 'enabled' || status === 'approved' || status === 'active' || status === 'delivered'
      ? 'bg-emerald-100 text-emerald-800'
      : status === 'pending'
        ? 'bg-amber-100 text-amber-900'
        : status === 'rejected' || status === 'failed' || status === 'dead'
          ? 'bg-red-100 text-red-800'
          : 'bg-slate-200 text-slate-700';
  return <span data-status={status} className={`rounded px-2 py-0.5 text-xs font-medium ${tone}`}>{words(status)}</span>;
}

/** A button that shows it is working (aria-busy, a spinner and `busyLabel`) and cannot be pressed twice. */
export { BusyButton };

/** A form's submit button (busy while its mutation runs) and, when the form can be dismissed, Cancel. */
export function FormActions({ submitLabel, busy, busyLabel, onCancel }: { submitLabel: string; busy?: boolean; busyLabel?: string; onCancel?: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <BusyButton type="submit" busy={busy} busyLabel={busyLabel}>
        {submitLabel}
      </BusyButton>
      {onCancel && (
        <BusyButton variant="secondary" onClick={onCancel}>
          Cancel
        </BusyButton>
      )}
    </div>
  );
}

const control =
  'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';

export function SelectField({ label, children, ...props }: { label: string; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <label className="block text-sm font-medium text-slate-700">
      {label}
      <select {...props} className={control}>
        {children}
      </select>
    </label>
  );
}

/** The label points at the text area (not around it), so its accessible name stays the label, not the text typed. */
export function TextAreaField({ label, id, ...props }: { label: string; id: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea id={id} {...props} className={`${control} font-mono`} />
    </div>
  );
}

export function CheckboxField({ label, ...props }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-700">
      <input type="checkbox" {...props} />
      {label}
    </label>
  );
}

export const card = 'rounded-lg border border-slate-200 bg-white p-4';
export const tableHead = 'text-xs uppercase text-slate-500';
