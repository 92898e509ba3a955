'use client';

import { useState } from 'react';
import { portalAction } from './portal-actions';
import { portalPath } from './portal-ui';

/** Ends the session (server and cookie) and returns to the sign-in page. */
export function SignOutButton({ embedKey }: { embedKey: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await portalAction(embedKey, 'sign-out', {});
        window.location.replace(portalPath(embedKey));
      }}
      className="shrink-0 rounded-[var(--nl-flow-radius,0.375rem)] border border-slate-400 bg-white px-3 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:opacity-60"
    >
      {busy ? 'Signing out…' : 'Sign out'}
    </button>
  );
}
