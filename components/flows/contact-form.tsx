'use client';

import { useState } from 'react';
import type { FieldErrors } from '@/components/intake/types';
import { ErrorSummary, primaryButton } from './error-summary';
import { US_STATE_OPTIONS } from '@/server/lib/us-states';
import type { ContactAnswers } from './types';
import { useHydrated } from '@/web/use-hydrated';

const LABELS: Record<keyof ContactAnswers, string> = {
  name: 'Full name',
  email: 'E-mail address',
  phone: 'Phone number',
  smsConsent: 'Text me updates about my request and order at this number',
  dateOfBirth: 'Date of birth',
  addressLine1: 'Street address',
  addressLine2: 'Apartment, suite or unit (optional)',
  city: 'City',
  state: 'State you live in',
  postalCode: 'ZIP code',
};
export const EMPTY_CONTACT: ContactAnswers = { name: '', email: '', phone: '', dateOfBirth: '', addressLine1: '', addressLine2: '', city: '', state: '', postalCode: '', smsConsent: false };
/** The fields typed as text (all but the consent box). */
type TextField = Exclude<keyof ContactAnswers, 'smsConsent'>;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ZIP = /^\d{5}(-\d{4})?$/;
/** Loose, as the server's rule: +country and 8 to 15 digits, or a 10-digit US number (a leading 1 allowed). */
const phoneOk = (v: string) => {
  const digits = v.replace(/\D/g, '');
  return /^\+?[\d\s().-]+$/.test(v.trim()) && (v.trim().startsWith('+') ? digits.length >= 8 && digits.length <= 15 : digits.length === 10 || (digits.length === 11 && digits.startsWith('1')));
};
const fieldId = (name: string) => `contact-${name}`;

/** The step where an answer the contact details must agree with was given, and the way there. */
export interface EarlierAnswer {
  title: string;
  go(): void;
}

/** The patient's mistakes, in words for them; empty when the details can be sent. */
export function checkContact(v: ContactAnswers, today = new Date().toISOString().slice(0, 10)): FieldErrors {
  const errors: FieldErrors = {};
  if (!v.name.trim()) errors.name = 'Enter your full name.';
  if (!EMAIL.test(v.email.trim())) errors.email = 'Enter an e-mail address like name@example.com.';
  if (!phoneOk(v.phone)) errors.phone = 'Enter a phone number like (555) 123-4567 or +15551234567.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v.dateOfBirth)) errors.dateOfBirth = 'Enter your date of birth.';
  else if (v.dateOfBirth >= today || v.dateOfBirth < '1900-01-01') errors.dateOfBirth = 'Enter a real date of birth in the past.';
  if (!v.addressLine1.trim()) errors.addressLine1 = 'Enter the street address your order ships to.';
  if (!v.city.trim()) errors.city = 'Enter your city.';
  if (!v.state) errors.state = 'Choose the state you live in.';
  if (!ZIP.test(v.postalCode.trim())) errors.postalCode = 'Enter a 5-digit ZIP code, like 94105 or 94105-1234.';
  return errors;
}

const control = 'mt-2 block w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600 focus:outline-none';

/**
 * Name, e-mail, phone, date of birth and the shipping address (its state is the state the patient lives in),
 * with the browser's autofill names, each labelled and tied to its error; a refused send lists its problems in a
 * summary that takes the focus. Details the patient already gave in the questionnaire arrive prefilled.
 */
export function ContactForm({
  submitLabel = 'Continue',
  initial,
  earlier,
  onSubmit,
}: {
  submitLabel?: string;
  /** The details given earlier (this session's): this page's, or facts answered in the questionnaire. */
  initial?: Partial<ContactAnswers>;
  /**
   * For a field refused as differing from an earlier answer: the step where that answer was given and the way
   * there (DESIGN decision 44), offered under the field's error while it stands.
   */
  earlier?: Partial<Record<keyof ContactAnswers, EarlierAnswer>>;
  onSubmit(v: ContactAnswers): Promise<FieldErrors | null>;
}) {
  const [v, setV] = useState<ContactAnswers>(() => ({ ...EMPTY_CONTACT, ...initial }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [sending, setSending] = useState(false);
  const hydrated = useHydrated();

  const fail = (found: FieldErrors) => {
    setErrors(found);
    setAttempt((n) => n + 1);
  };
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (sending) return;
    const found = checkContact(v);
    if (Object.keys(found).length) return fail(found);
    setSending(true);
    try {
      const trimmed = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() : x])) as unknown as ContactAnswers;
      const problems = await onSubmit(trimmed);
      if (problems) fail(problems);
    } finally {
      setSending(false);
    }
  }
  const set = (name: TextField) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setV((old) => ({ ...old, [name]: e.target.value }));
    if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  const props = (name: TextField, required = true) => ({
    id: fieldId(name),
    name,
    value: v[name],
    onChange: set(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${fieldId(name)}-error` : undefined,
    'aria-required': required || undefined,
    className: `${control} ${errors[name] ? 'border-red-600' : 'border-slate-400'}`,
  });
  const field = (name: keyof ContactAnswers, input: React.ReactNode) => (
    <div>
      <label htmlFor={fieldId(name)} className="block text-base font-medium text-slate-900">
        {LABELS[name]}
      </label>
      {input}
      {errors[name] && (
        <p id={`${fieldId(name)}-error`} className="mt-1 text-sm font-medium text-red-700">
          <span className="sr-only">Error: </span>
          {errors[name]}
        </p>
      )}
      {errors[name] && earlier?.[name] && (
        <button type="button" onClick={earlier[name].go} className="mt-2 text-base font-medium text-indigo-700 underline hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700">
          Go to “{earlier[name].title}”
        </button>
      )}
    </div>
  );

  return (
    <form noValidate onSubmit={submit} className="space-y-6">
      <ErrorSummary errors={errors} labels={LABELS} attempt={attempt} fieldId={fieldId} />
      {field('name', <input {...props('name')} type="text" autoComplete="name" />)}
      {field('email', <input {...props('email')} type="email" autoComplete="email" inputMode="email" />)}
      {field('phone', <input {...props('phone')} type="tel" autoComplete="tel" inputMode="tel" />)}
      <div className="flex items-start gap-3">
        <input
          id={fieldId('smsConsent')}
          name="smsConsent"
          type="checkbox"
          checked={v.smsConsent}
          onChange={(e) => setV((old) => ({ ...old, smsConsent: e.target.checked }))}
          aria-describedby={`${fieldId('smsConsent')}-hint`}
          className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400 text-indigo-700 focus:ring-2 focus:ring-indigo-600"
        />
        <div>
          <label htmlFor={fieldId('smsConsent')} className="block text-base font-medium text-slate-900">
            {LABELS.smsConsent} (optional)
          </label>
          <p id={`${fieldId('smsConsent')}-hint`} className="text-sm text-slate-700">
            Only when your request is received, sent to the pharmacy, shipped, delivered or needs attention. Each text has a link to stop them.
          </p>
        </div>
      </div>
      {field('dateOfBirth', <input {...props('dateOfBirth')} type="date" autoComplete="bday" />)}
      <fieldset className="space-y-6">
        <legend className="text-base font-semibold text-slate-900">Shipping address</legend>
        {field('addressLine1', <input {...props('addressLine1')} type="text" autoComplete="address-line1" />)}
        {field('addressLine2', <input {...props('addressLine2', false)} type="text" autoComplete="address-line2" />)}
        {field('city', <input {...props('city')} type="text" autoComplete="address-level2" />)}
        {field(
          'state',
          <select {...props('state')} autoComplete="address-level1">
            <option value="">Choose a state</option>
            {US_STATE_OPTIONS.map(({ value, label }) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>,
        )}
        {field('postalCode', <input {...props('postalCode')} type="text" autoComplete="postal-code" inputMode="numeric" />)}
      </fieldset>
      <button type="submit" disabled={sending || !hydrated} className={primaryButton}>
        {sending ? 'Sending…' : submitLabel}
      </button>
    </form>
  );
}
