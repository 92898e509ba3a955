'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import QRCode from 'qrcode';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { Alert, Button, Field } from '../ui/field';
import { FieldError, fieldMessage } from '../ui/field-error';
import { QueryError } from '../ui/query-state';

/** TOTP enrollment: a QR code of the otpauth:// URI (and the secret as text), confirmed by a first code. */
export function MfaEnrollment() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions({}));
  const [qr, setQr] = useState<string>();
  const [code, setCode] = useState('');
  const enroll = useMutation(
    trpc.auth.mfaEnroll.mutationOptions({ onSuccess: async (answer) => setQr(answer.otpauthUri ? await QRCode.toDataURL(answer.otpauthUri, { margin: 1, width: 192 }) : undefined) }),
  );
  const verify = useMutation(trpc.auth.mfaVerify.mutationOptions({ onSuccess: () => qc.invalidateQueries({ queryKey: trpc.auth.me.queryKey() }) }));

  const user = me.data?.user;
  const on = Boolean(user?.mfaEnabled) || verify.isSuccess;
  const codeError = fieldMessage(verify.error, 'code') ?? verify.error?.message;

  function confirm(e: React.FormEvent) {
    e.preventDefault();
    verify.mutate({ code: code.replace(/\s/g, '') });
  }

  return (
    <section className="rounded-lg border border-slate-200 bg-white">
      <div className="flex items-center justify-between border-b border-slate-200 px-5 py-3">
        <h2 className="text-sm font-semibold text-slate-900">Two-factor authentication</h2>
        <span className={`rounded px-2 py-0.5 text-xs font-semibold ${on ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-600'}`}>{on ? 'On' : 'Off'}</span>
      </div>
      <div className="space-y-4 px-5 py-4">
        {me.isError && <QueryError error={me.error} />}
        {on ? (
          <Alert tone="success">Two-factor authentication is on. Each sign-in asks for a code from your authenticator app.</Alert>
        ) : !enroll.data || !qr ? (
          <>
            <p className="text-sm text-slate-600">
              Protect your account with a time-based code from an authenticator app (1Password, Google Authenticator, Authy…).
              {user?.role === 'provider' && ' Providers need it before they can approve anything.'}
            </p>
            {enroll.isError && <QueryError error={enroll.error} title="Enrollment could not start." />}
            <div className="max-w-xs">
              <Button type="button" onClick={() => enroll.mutate({})} disabled={enroll.isPending || !user}>
                Set up two-factor authentication
              </Button>
            </div>
          </>
        ) : (
          <form onSubmit={confirm} className="grid gap-6 sm:grid-cols-[auto_1fr]">
            <img src={qr} alt="QR code for your authenticator app" width={192} height={192} className="rounded-md border border-slate-200" />
            <div className="min-w-0 space-y-4">
              <p className="text-sm text-slate-600">Scan the QR code with your authenticator app, or type this secret into it, then enter the 6-digit code the app shows.</p>
              <p className="rounded-md bg-slate-50 px-3 py-2 font-mono text-sm tracking-wider break-all text-slate-900" data-testid="mfa-secret">
                {enroll.data.secret}
              </p>
              <div>
                <Field
                  label="Code from the app"
                  name="code"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  maxLength={7}
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  required
                  aria-invalid={verify.isError}
                  aria-describedby="mfa-code-error"
                />
                <FieldError id="mfa-code-error" message={codeError} />
              </div>
              <div className="max-w-xs">
                <Button type="submit" disabled={verify.isPending}>
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
