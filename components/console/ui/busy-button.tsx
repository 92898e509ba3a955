'use client';

import type { ButtonHTMLAttributes } from 'react';
import { useHydrated } from '@/web/use-hydrated';

/** The console's button: a spinner and label while busy, and disabled until the page is hydrated (see useHydrated). */
export function BusyButton({
  busy,
  busyLabel,
  children,
  variant = 'primary',
  disabled,
  ...props
}: { busy?: boolean; busyLabel?: string; variant?: 'primary' | 'secondary' | 'danger' } & ButtonHTMLAttributes<HTMLButtonElement>) {
  const hydrated = useHydrated();
  const styles = {
    primary: 'bg-indigo-600 text-white hover:bg-indigo-500',
    secondary: 'border border-slate-300 bg-white text-slate-700 hover:bg-slate-50',
    danger: 'border border-red-300 bg-white text-red-700 hover:bg-red-50',
  };
  return (
    <button
      type="button"
      {...props}
      disabled={disabled || busy || !hydrated}
      aria-busy={busy || undefined}
      className={`inline-flex items-center gap-2 rounded-md px-3 py-1.5 text-sm font-semibold shadow-sm disabled:opacity-50 ${styles[variant]}`}
    >
      {busy && <span aria-hidden className="h-3 w-3 animate-spin rounded-full border-2 border-current border-t-transparent" />}
      {busy && busyLabel ? busyLabel : children}
    </button>
  );
}
