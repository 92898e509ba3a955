'use client';

import { useState } from 'react';
import { postJson } from './api-client';
import { Alert, Button, Field } from './field';

/** Asks the API to e-mail a single-use sign-in link; the answer never says whether the account exists. */
export function MagicLinkRequest({ initialEmail, onUsePassword }: { initialEmail: string; onUsePassword: () => void }) {
  const [email, setEmail] = useState(initialEmail);
  const [sent, setSent] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    const res = await postJson('/auth/magic-link', { email });
    if (res.ok) setSent(email);
    else setError(res.error?.message ?? 'The link could not be sent. Try again.');
    setBusy(false);
  }

  return (
    <form onSubmit={submit} className="space-y-4">
      <p className="text-sm text-slate-600">We will e-mail you a link that signs you in once, within 15 minutes.</p>
      <Field label="E-mail" name="email" type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} required />
      {error && <Alert>{error}</Alert>}
      {sent && <Alert tone="info">If {sent} has an account, a sign-in link is on its way. Check your inbox.</Alert>}
      <Button type="submit" disabled={busy}>
        {busy ? 'Sending…' : sent ? 'Send another link' : 'Email me a sign-in link'}
      </Button>
      <button type="button" onClick={onUsePassword} className="w-full text-sm font-medium text-indigo-700 hover:underline">
        Sign in with a password instead
      </button>
    </form>
  );
}
