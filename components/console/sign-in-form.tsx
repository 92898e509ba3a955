'use client';

import { useState } from 'react';
import { postJson, startConsoleSession, type LoginAnswer } from './api-client';
import { Alert, Button, Field } from './field';
import { TotpStep } from './totp-step';

export function SignInForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [mfaToken, setMfaToken] = useState<string>();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function signInWithPassword(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const res = await postJson<LoginAnswer>('/auth/login', { email, password });
    if (!res.ok) setError(res.error?.message ?? 'Sign-in failed.');
    else if ('mfaRequired' in res.data) setMfaToken(res.data.mfaToken);
    else setError(await startConsoleSession(res.data));
    setBusy(false);
  }

  async function sendLink() {
    setError(undefined);
    const res = await postJson('/auth/magic-link', { email });
    if (res.ok) setNotice(`If ${email} has an account, a sign-in link is on its way.`);
    else setError(res.error?.message ?? 'Enter your e-mail address first.');
  }

  if (mfaToken) return <TotpStep mfaToken={mfaToken} />;
  return (
    <form onSubmit={signInWithPassword} className="space-y-4">
      <Field label="E-mail" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required />
      <Field label="Password" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      {error && <Alert>{error}</Alert>}
      {notice && <Alert tone="info">{notice}</Alert>}
      <Button type="submit" disabled={busy || !password}>
        Sign in
      </Button>
      <button type="button" onClick={sendLink} className="w-full text-sm font-medium text-indigo-700 hover:underline">
        Email me a sign-in link instead
      </button>
    </form>
  );
}
