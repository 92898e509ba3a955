'use client';

import { useRouter } from 'next/navigation';
import { switchMode } from '@/lib/trpc/client';

/** Sandbox and live data are disjoint; the choice travels to the API as the X-Mode header. */
export function ModeSwitch({ mode }: { mode: 'sandbox' | 'live' }) {
  const router = useRouter();
  function choose(next: 'sandbox' | 'live') {
    switchMode(next);
    router.refresh();
  }
  return (
    <div role="group" aria-label="Mode" className="inline-flex rounded-md border border-slate-300 text-xs font-semibold">
      {(['sandbox', 'live'] as const).map((m) => (
        <button
          key={m}
          type="button"
          aria-pressed={mode === m}
          onClick={() => choose(m)}
          className={`px-3 py-1 capitalize first:rounded-l-md last:rounded-r-md ${mode === m ? (m === 'live' ? 'bg-emerald-600 text-white' : 'bg-amber-500 text-white') : 'bg-white text-slate-600'}`}
        >
          {m}
        </button>
      ))}
    </div>
  );
}
