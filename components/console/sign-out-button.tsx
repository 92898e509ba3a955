'use client';

import { signOut } from 'next-auth/react';
import { postJson } from './api-client';

/** Ends the API session (its refresh-token family) and then the console cookie. */
export function SignOutButton({ token, refreshToken }: { token: string; refreshToken?: string }) {
  async function signOutEverywhere() {
    await postJson('/auth/logout', refreshToken ? { refreshToken } : {}, token).catch(() => undefined);
    await signOut({ callbackUrl: '/login' });
  }
  return (
    <button type="button" onClick={signOutEverywhere} className="text-sm font-medium text-slate-600 hover:text-slate-900">
      Sign out
    </button>
  );
}
