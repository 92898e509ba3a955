'use client';

import { useState } from 'react';

/** Copies a value (an id, a secret shown once) and says so; the label names what is copied for screen readers. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard?.writeText(value).catch(() => undefined);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={label}
      className="rounded border border-slate-300 bg-white px-1.5 py-0.5 text-xs font-medium text-slate-600 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** An id shown small beside the name it belongs to, with a copy button. */
export function IdChip({ id }: { id: string }) {
  return (
    <span className="inline-flex max-w-full items-center gap-1 align-middle">
      <code className="truncate font-mono text-xs text-slate-500">{id}</code>
      <CopyButton value={id} label={`Copy ${id}`} />
    </span>
  );
}
