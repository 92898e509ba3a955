'use client';

import './globals.css';

/** The last resort, when the root layout itself failed: no console chrome, just a way to try again. */
export default function GlobalError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <main className="mx-auto max-w-xl px-4 py-16 text-center">
          <h1 className="text-2xl font-semibold">Fulfillment Rail is not available right now</h1>
          <p className="mt-3 text-sm text-slate-600">Something went wrong on our side. Trying again usually helps; if it keeps happening, contact support.</p>
          {error.digest && <p className="mt-2 font-mono text-xs text-slate-500">Reference {error.digest}</p>}
          <div className="mt-6 flex justify-center gap-3">
            <button type="button" onClick={reset} className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700">
              Try again
            </button>
            {/* A plain anchor: the app's router may be what failed. */}
            <a href="/" className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white">
              Back to Fulfillment Rail
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
