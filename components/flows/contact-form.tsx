'use client';

import { useState } from 'react';
import type { FieldErrors } from '@/components/intake/types';
import { ErrorSummary, primaryButton } from './error-summary';
import type { ContactAnswers } from './types';

const STATES: [string, string][] = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'], ['CO', 'Colorado'], ['CT', 'Connecticut'],
  ['DE', 'Delaware'], ['DC', 'District of Columbia'], ['FL', 'Florida'], ['GA', 'Georgia'], ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'],
  ['IN', 'Indiana'], ['IA', 'Iowa'], ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'],
  ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'], ['MT', 'Montana'],
  ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'], ['NM', 'New Mexico'], ['NY', 'New York'],
  ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'], ['OK', 'Oklahoma'], ['OR', 'Oregon'], ['PA', 'Pennsylvania'],
  ['PR', 'Puerto Rico'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'], ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['TX', 'Texas'],
  ['UT', 'Utah'], ['VT', 'Vermont'], ['VA', 'Virginia'], ['WA', 'Washington'], ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
];

const LABELS: Record<keyof ContactAnswers, string> = { name: 'Full name', email: 'E-mail address', state: 'State you live in', dateOfBirth: 'Date of birth' };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const fieldId = (name: string) => `contact-${name}`;

/** The patient's mistakes, in words for them; empty when the details can be sent. */
export function checkContact(v: ContactAnswers, today = new Date().toISOString().slice(0, 10)): FieldErrors {
  const errors: FieldErrors = {};
  if (!v.name.trim()) errors.name = 'Enter your full name.';
  if (!EMAIL.test(v.email.trim())) errors.email = 'Enter an e-mail address like name@example.com.';
  if (!v.state) errors.state = 'Choose the state you live in.';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v.dateOfBirth)) errors.dateOfBirth = 'Enter your date of birth.';
  else if (v.dateOfBirth >= today || v.dateOfBirth < '1900-01-01') errors.dateOfBirth = 'Enter a real date of birth in the past.';
  return errors;
}

const control = 'mt-2 block w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600 focus:outline-none';

/**
 * Name, e-mail, state and date of birth, with the browser's autofill names, each labelled and tied to its error;
 * a refused send lists its problems in a summary that takes the focus.
 */
export function ContactForm({
  submitLabel = 'Continue',
  initial,
  onSubmit,
}: {
  submitLabel?: string;
  /** The details given earlier on this page (held in memory only), when the patient comes back to it. */
  initial?: ContactAnswers;
  onSubmit(v: ContactAnswers): Promise<FieldErrors | null>;
}) {
  const [v, setV] = useState<ContactAnswers>(() => initial ?? { name: '', email: '', state: '', dateOfBirth: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [sending, setSending] = useState(false);

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
      const problems = await onSubmit({ ...v, name: v.name.trim(), email: v.email.trim() });
      if (problems) fail(problems);
    } finally {
      setSending(false);
    }
  }
  const set = (name: keyof ContactAnswers) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setV((old) => ({ ...old, [name]: e.target.value }));
    if (errors[name]) setErrors(({ [name]: _gone, ...rest }) => rest);
  };
  const props = (name: keyof ContactAnswers) => ({
    id: fieldId(name),
    name,
    value: v[name],
    onChange: set(name),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${fieldId(name)}-error` : undefined,
    'aria-required': true,
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
    </div>
  );

  return (
    <form noValidate onSubmit={submit} className="space-y-6">
      <ErrorSummary errors={errors} labels={LABELS} attempt={attempt} fieldId={fieldId} />
      {field('name', <input {...props('name')} type="text" autoComplete="name" />)}
      {field('email', <input {...props('email')} type="email" autoComplete="email" inputMode="email" />)}
      {field(
        'state',
        <select {...props('state')} autoComplete="address-level1">
          <option value="">Choose a state</option>
          {STATES.map(([code, label]) => (
            <option key={code} value={code}>
              {label}
            </option>
          ))}
        </select>,
      )}
      {field('dateOfBirth', <input {...props('dateOfBirth')} type="date" autoComplete="bday" />)}
      <button type="submit" disabled={sending} className={primaryButton}>
        {sending ? 'Sending…' : submitLabel}
      </button>
    </form>
  );
}
