'use client';

import { useEffect, useRef, useState } from 'react';
import { postJson, startConsoleSession, type LoginAnswer } from './api-client';
import { Alert } from './field';
import { TotpStep } from './totp-step';

/** Exchanges the link's single-use token once, then continues with the code step when the account needs it. */
export function MagicLinkSignIn({ token }: { token: string }) {
  const [mfaToken, setMfaToken] = useState<string>();
  const [error, setError] = useState<string>();
  const used = useRef(false);

  useEffect(() => {
    if (used.current) return;
    used.current = true;
    postJson<LoginAnswer>('/auth/magic-link/verify', { token }).then(async (res) => {
      if (!res.ok) setError(res.error?.message ?? 'This link cannot be used.');
      else if ('mfaRequired' in res.data) setMfaToken(res.data.mfaToken);
      else setError(await startConsoleSession(res.data));
    });
  }, [token]);

  if (error) return <Alert>{error}</Alert>;
  if (mfaToken) return <TotpStep mfaToken={mfaToken} />;
  return <p className="text-sm text-slate-600">Signing you in…</p>;
}
