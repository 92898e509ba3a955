'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { consoleSignIn } from './console-sign-in';
import { Alert } from '../ui/field';
import { TotpStep } from './totp-step';

/** Exchanges the link's single-use token once, then continues with the code step when the account needs it. */
export function MagicLinkSignIn({ token }: { token: string }) {
  const [mfaToken, setMfaToken] = useState<string>();
  const [error, setError] = useState<string>();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    consoleSignIn('magic-link', { token }).then((outcome) => {
      if (outcome.ok) return;
      if (outcome.mfaRequired && outcome.mfaToken) setMfaToken(outcome.mfaToken);
      else setError(outcome.message);
    });
  }, [token]);

  async function submitCode(code: string) {
    const outcome = await consoleSignIn('magic-link', { mfaToken, code });
    return outcome.ok ? undefined : outcome.message || 'The code was not accepted.';
  }

  if (error) {
    return (
      <div className="space-y-4">
        <Alert>{error}</Alert>
        <Link href="/login" className="block text-center text-sm font-medium text-indigo-700 hover:underline">
          Back to sign-in
        </Link>
      </div>
    );
  }
  if (mfaToken) return <TotpStep onSubmit={submitCode} />;
  return <p className="text-sm text-slate-600">Signing you in…</p>;
}
