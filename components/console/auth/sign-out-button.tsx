'use client';

import { signOut } from 'next-auth/react';
import { useState } from 'react';

/** next-auth's sign-out also ends the API session (its refresh-token family), server-side. */
export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  async function signOutNow() {
    setBusy(true);
    await signOut({ redirect: false }).catch(() => undefined);
    window.location.assign('/login');
  }
  return (
    <button
      type="button"
      onClick={signOutNow}
      disabled={busy}
      className="shrink-0 rounded-md px-2 py-1 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:opacity-50"
    >
      Sign out
    </button>
  );
}
