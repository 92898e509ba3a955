'use client';

import { useState } from 'react';
import { Alert, Button, Field } from '../ui/field';

/** Second step of any sign-in for an account with two-factor authentication. Resolves to an error or nothing. */
export function TotpStep({ onSubmit, onCancel }: { onSubmit: (code: string) => Promise<string | undefined>; onCancel?: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(await onSubmit(code.replace(/\s/g, '')));
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <p className="text-sm text-slate-600">Two-factor authentication is on for this account. Enter the 6-digit code from your authenticator app.</p>
      <Field
        label="Authentication code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9 ]{6,7}"
        maxLength={7}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        autoFocus
        required
      />
      {error && <Alert>{error}</Alert>}
      <Button type="submit" disabled={busy}>
        {busy ? 'Verifying…' : 'Verify'}
      </Button>
      {onCancel && (
        <button type="button" onClick={onCancel} className="w-full text-sm font-medium text-slate-600 hover:text-slate-900">
          Back
        </button>
      )}
    </form>
  );
}
