'use client';

import { useRouter } from 'next/navigation';
import { switchMode, type Mode } from '@/web/trpc/client';

const LABEL: Record<Mode, string> = { sandbox: 'Sandbox', live: 'Live' };

/** Sandbox and live data are disjoint; the choice travels to the API as the X-Mode header. */
export function ModeSwitch({ mode }: { mode: Mode }) {
  const router = useRouter();
  function choose(next: Mode) {
    if (next === mode) return;
    switchMode(next);
    router.refresh();
  }
  return (
    <div role="group" aria-label="Mode" className="inline-flex shrink-0 rounded-md border border-slate-300 bg-white p-0.5 text-xs font-semibold">
      {(['sandbox', 'live'] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={mode === m}
          onClick={() => choose(m)}
          className={`rounded px-2.5 py-1 ${mode === m ? (m === 'live' ? 'bg-emerald-700 text-white' : 'bg-amber-300 text-amber-950') : 'text-slate-600 hover:bg-slate-100'}`}
        >
          {LABEL[m]}
        </button>
      ))}
    </div>
  );
}

/** A full-width strip in the mode's colour, so nobody mistakes live data for test data. */
export function ModeBanner({ mode }: { mode: Mode }) {
  const live = mode === 'live';
  return (
    <p data-testid="mode-banner" className={`px-4 py-1 text-center text-xs ${live ? 'bg-emerald-700 text-white' : 'bg-amber-300 text-amber-950'}`}>
      <strong className="font-semibold">{live ? 'Live mode' : 'Sandbox mode'}</strong>
      {live ? ': real patients, real orders, real pharmacies.' : ': test data and synthetic patients only.'}
    </p>
  );
}
