'use client';

import { CopyButton } from '../ui/copy-button';

/** The plaintext of a new key, shown this once: the API stores only its hash. */
export function ApiKeySecret({ name, plaintext, onDone }: { name: string; plaintext: string; onDone: () => void }) {
  return (
    <section aria-labelledby="new-key-title" className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="new-key-title" className="text-sm font-semibold text-amber-950">
        Key “{name}” created
      </h2>
      <p role="alert" className="text-sm font-medium text-amber-900">
        Copy this key now and keep it somewhere safe. It will not be shown again: if you lose it, revoke it and create a new one.
      </p>
      <div className="flex items-start gap-2">
        <code data-testid="new-key-plaintext" className="min-w-0 flex-1 rounded-md border border-amber-200 bg-white px-3 py-2 font-mono text-sm break-all text-slate-900">
          {plaintext}
        </code>
        <CopyButton value={plaintext} label="Copy the new key" />
      </div>
      <button type="button" onClick={onDone} className="rounded-md border border-amber-300 bg-white px-3 py-1.5 text-sm font-medium text-amber-950 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-amber-600">
        I have copied it
      </button>
    </section>
  );
}
