'use client';

import QRCode from 'qrcode';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { postJson } from './api-client';
import { Alert, Button, Field } from './field';

interface Enrollment {
  secret: string;
  qr: string;
}

/** TOTP enrollment: a QR code of the otpauth:// URI (and the secret as text), confirmed by a first code. */
export function MfaEnrollment({ token, enabled, isProvider }: { token: string; enabled: boolean; isProvider: boolean }) {
  const router = useRouter();
  const [on, setOn] = useState(enabled);
  const [enrollment, setEnrollment] = useState<Enrollment>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    setError(undefined);
    const res = await postJson<{ secret: string; otpauthUri: string }>('/auth/mfa/enroll', {}, token);
    if (res.ok) setEnrollment({ secret: res.data.secret, qr: await QRCode.toDataURL(res.data.otpauthUri, { margin: 1, width: 192 }) });
    else setError(res.error?.message ?? 'Enrollment could not start. Reload the page and try again.');
    setBusy(false);
  }

  async function confirm(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    const res = await postJson('/auth/mfa/verify', { code: code.replace(/\s/g, '') }, token);
    if (res.ok) {
      setOn(true);
      router.refresh();
    } else setError(res.error?.message ?? 'The code was not accepted.');
    setBusy(false);
  }

  return (
    <section className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
        <h2 className="text-sm font-semibold text-slate-900">Two-factor authentication</h2>
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${on ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-600'}`}>{on ? 'On' : 'Off'}</span>
      </div>
      <div className="space-y-4 px-5 py-4">
        {on ? (
          <Alert tone="success">Two-factor authentication is on. Each sign-in asks for a code from your authenticator app.</Alert>
        ) : !enrollment ? (
          <>
            <p className="text-sm text-slate-600">
              Protect your account with a time-based code from an authenticator app (1Password, Google Authenticator, Authy…).
              {isProvider && ' Providers need it before they can approve anything.'}
            </p>
            {error && <Alert>{error}</Alert>}
            <div className="max-w-xs">
              <Button type="button" onClick={start} disabled={busy}>
                Set up two-factor authentication
              </Button>
            </div>
          </>
        ) : (
          <form onSubmit={confirm} className="grid gap-6 sm:grid-cols-[auto_1fr]">
            <img src={enrollment.qr} alt="QR code for your authenticator app" width={192} height={192} className="rounded-md border border-slate-200" />
            <div className="space-y-4">
              <p className="text-sm text-slate-600">Scan the QR code with your authenticator app, or type this secret into it, then enter the 6-digit code the app shows.</p>
              <p className="rounded-md bg-slate-50 px-3 py-2 font-mono text-sm tracking-wider break-all text-slate-900" data-testid="mfa-secret">
                {enrollment.secret}
              </p>
              <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={7} value={code} onChange={(e) => setCode(e.target.value)} required />
              {error && <Alert>{error}</Alert>}
              <div className="max-w-xs">
                <Button type="submit" disabled={busy}>
                  Turn on
                </Button>
              </div>
            </div>
          </form>
        )}
      </div>
    </section>
  );
}
