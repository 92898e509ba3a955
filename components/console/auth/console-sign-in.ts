'use client';

import { signIn } from 'next-auth/react';
import { parseSignInError } from '@/web/console/sign-in-errors';

export type SignInOutcome = { ok: true } | { ok: false; mfaRequired: boolean; mfaToken?: string; message: string };

/**
 * Runs one of next-auth's Credentials providers (password, magic-link, invite) without leaving the page;
 * on success opens the console, otherwise says why (or that the TOTP code is needed).
 */
export async function consoleSignIn(provider: 'password' | 'magic-link' | 'invite', credentials: Record<string, string | undefined>): Promise<SignInOutcome> {
  const fields = Object.fromEntries(Object.entries(credentials).filter(([, v]) => v)) as Record<string, string>;
  const res = await signIn(provider, { ...fields, redirect: false }).catch(() => undefined);
  if (res?.ok && !res.error) {
    window.location.assign('/console');
    return { ok: true };
  }
  return { ok: false, ...parseSignInError(res?.error ?? 'Sign-in is unavailable right now. Try again in a moment.') };
}
