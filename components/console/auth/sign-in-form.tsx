'use client';

import { useState } from 'react';
import { consoleSignIn } from './console-sign-in';
import { Alert, Button, Field } from '../ui/field';
import { TotpStep } from './totp-step';

/** E-mail and password; then, for accounts with two-factor authentication, the TOTP code. */
export function SignInForm({ onUseLink }: { onUseLink: (email: string) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const outcome = await consoleSignIn('password', { email, password });
    if (!outcome.ok && outcome.mfaRequired) setNeedsCode(true);
    else if (!outcome.ok) setError(outcome.message);
    setBusy(false);
  }

  async function submitCode(code: string) {
    const outcome = await consoleSignIn('password', { email, password, code });
    return outcome.ok ? undefined : outcome.message || 'The code was not accepted.';
  }

  if (needsCode) return <TotpStep onSubmit={submitCode} onCancel={() => setNeedsCode(false)} />;
  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="E-mail" name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required />
      <Field label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
      {error && <Alert>{error}</Alert>}
      <Button type="submit" disabled={busy}>
        {busy ? 'Signing in…' : 'Sign in'}
      </Button>
      <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-500">
        <span className="h-px flex-1 bg-slate-200" />
        or
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <button
        type="button"
        onClick={() => onUseLink(email)}
        className="w-full rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-700 shadow-sm hover:bg-slate-50"
      >
        Sign in with an e-mail link
      </button>
    </form>
  );
}
