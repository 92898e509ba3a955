'use client';

import { useEffect, useRef, useState } from 'react';
import { primaryButton, secondaryButton } from '@/components/flows/error-summary';
import { useHydrated } from '@/web/use-hydrated';
import { portalAction } from './portal-actions';
import { control } from './portal-ui';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One labelled field with its error tied to it (aria-describedby), as the flows' forms do. */
function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-base font-medium">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {children}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          <span className="sr-only">Error: </span>
          {error}
        </p>
      )}
    </div>
  );
}

const described = (id: string, error: string | undefined, hint = false) =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

/**
 * Sign-in in two steps (DESIGN decision 39): the e-mail and date of birth on file, then the 6-digit code the
 * clinic mails (or its link). The first step's answer never says whether the clinic knows the person. On success
 * the session lives in an HttpOnly cookie (the action's answer sets it) and the page shows the patient's orders.
 */
export function PortalSignIn({ embedKey }: { embedKey: string }) {
  const hydrated = useHydrated();
  const [step, setStep] = useState<'details' | 'code'>('details');
  const [email, setEmail] = useState('');
  const [dateOfBirth, setDateOfBirth] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const problemBox = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (step === 'code') codeInput.current?.focus();
  }, [step]);
  useEffect(() => {
    if (problem) problemBox.current?.focus();
  }, [problem]);

  async function askForCode(e: React.FormEvent) {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!EMAIL.test(email.trim())) found.email = 'Enter the e-mail address your clinic has, like name@example.com.';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(dateOfBirth)) found.dateOfBirth = 'Enter your date of birth.';
    setErrors(found);
    setProblem(undefined);
    if (Object.keys(found).length) return;
    setBusy(true);
    const result = await portalAction(embedKey, 'request-code', { email: email.trim(), dateOfBirth }).finally(() => setBusy(false));
    if (!result.ok) return setProblem(result.message);
    setStep('code');
  }

  async function checkCode(e: React.FormEvent) {
    e.preventDefault();
    const typed = code.replace(/\s/g, '');
    setProblem(undefined);
    if (!/^\d{6}$/.test(typed)) return setErrors({ code: 'Enter the 6 digits from the e-mail.' });
    setErrors({});
    setBusy(true);
    const result = await portalAction(embedKey, 'verify-code', { email: email.trim(), code: typed });
    if (!result.ok) {
      setBusy(false);
      return setProblem(result.message);
    }
    // The cookie is set: the same address now answers the signed-in page.
    window.location.reload();
  }

  return (
    <div className="space-y-6">
      {problem && (
        <p ref={problemBox} tabIndex={-1} role="alert" className="rounded-md border-2 border-red-700 bg-red-50 p-3 text-base text-red-900">
          {problem}
        </p>
      )}
      {step === 'details' ? (
        <form noValidate onSubmit={askForCode} className="space-y-6" aria-label="Sign in">
          <p className="text-base text-slate-700">See your orders, track deliveries and change where an order ships. We will e-mail you a code to sign in.</p>
          <Field id="portal-email" label="E-mail address" error={errors.email}>
            <input
              id="portal-email"
              type="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={described('portal-email', errors.email)}
              className={`${control} ${errors.email ? 'border-red-600' : 'border-slate-400'}`}
            />
          </Field>
          <Field id="portal-dob" label="Date of birth" error={errors.dateOfBirth}>
            <input
              id="portal-dob"
              type="date"
              autoComplete="bday"
              value={dateOfBirth}
              onChange={(e) => setDateOfBirth(e.target.value)}
              aria-invalid={errors.dateOfBirth ? true : undefined}
              aria-describedby={described('portal-dob', errors.dateOfBirth)}
              className={`${control} ${errors.dateOfBirth ? 'border-red-600' : 'border-slate-400'}`}
            />
          </Field>
          <button type="submit" disabled={busy || !hydrated} className={primaryButton}>
            {busy ? 'Sending…' : 'E-mail me a code'}
          </button>
        </form>
      ) : (
        <form noValidate onSubmit={checkCode} className="space-y-6" aria-label="Enter your code">
          <p role="status" className="text-base text-slate-700">
            If these details match the clinic’s records, a 6-digit code is on its way to <span className="font-medium break-all">{email.trim()}</span>. It works once, for 10
            minutes. You can also open the link in the e-mail.
          </p>
          <Field id="portal-code" label="6-digit code" hint="From the e-mail we just sent." error={errors.code}>
            <input
              ref={codeInput}
              id="portal-code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={7}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              aria-invalid={errors.code ? true : undefined}
              aria-describedby={described('portal-code', errors.code, true)}
              className={`${control} tracking-widest ${errors.code ? 'border-red-600' : 'border-slate-400'}`}
            />
          </Field>
          <button type="submit" disabled={busy || !hydrated} className={primaryButton}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={() => {
              setStep('details');
              setCode('');
              setProblem(undefined);
            }}
          >
            Use other details or get a new code
          </button>
        </form>
      )}
    </div>
  );
}
