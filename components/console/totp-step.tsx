'use client';

import { useState } from 'react';
import { postJson, startConsoleSession, type SessionTokens } from './api-client';
import { Alert, Button, Field } from './field';

/** Second step of any sign-in for an account with two-factor authentication. */
export function TotpStep({ mfaToken }: { mfaToken: string }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const res = await postJson<SessionTokens>('/auth/mfa/verify', { mfaToken, code: code.trim() });
    const failure = res.ok ? await startConsoleSession(res.data) : (res.error?.message ?? 'The code was not accepted.');
    setError(failure);
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="Authentication code" name="code" inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} autoFocus required />
      {error && <Alert>{error}</Alert>}
      <Button type="submit" disabled={busy}>
        Verify
      </Button>
    </form>
  );
}
