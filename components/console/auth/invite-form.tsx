'use client';

import { useState } from 'react';
import { consoleSignIn } from './console-sign-in';
import { Alert, Button, Field } from '../ui/field';

/** Sets the invited person's password through the one-time link, which also signs them in. */
export function InviteForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (password !== confirm) return setError('The two passwords differ.');
    setBusy(true);
    const outcome = await consoleSignIn('invite', { token, password });
    setError(outcome.ok ? undefined : outcome.message);
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <p className="text-sm text-slate-600">Choose a password of at least 12 characters to activate your account.</p>
      <Field label="Password" name="password" type="password" autoComplete="new-password" minLength={12} value={password} onChange={(e) => setPassword(e.target.value)} required />
      <Field label="Confirm password" name="confirm" type="password" autoComplete="new-password" minLength={12} value={confirm} onChange={(e) => setConfirm(e.target.value)} required />
      {error && <Alert>{error}</Alert>}
      <Button type="submit" disabled={busy}>
        {busy ? 'Activating…' : 'Set password and sign in'}
      </Button>
    </form>
  );
}
