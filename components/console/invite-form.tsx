'use client';

import { useState } from 'react';
import { postJson, startConsoleSession, type SessionTokens } from './api-client';
import { Alert, Button, Field } from './field';

export function InviteForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const res = await postJson<SessionTokens>('/auth/accept-invite', { token, password });
    setError(res.ok ? await startConsoleSession(res.data) : (res.error?.message ?? 'The invitation could not be accepted.'));
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <Field label="Choose a password (12+ characters)" name="password" type="password" autoComplete="new-password" minLength={12} value={password} onChange={(e) => setPassword(e.target.value)} required />
      {error && <Alert>{error}</Alert>}
      <Button type="submit">Set password and sign in</Button>
    </form>
  );
}
