'use client';

import { useState } from 'react';
import type { FieldErrors } from '@/components/intake/types';
import { ErrorSummary, primaryButton } from './error-summary';
import type { StepOf } from './types';
import { useHydrated } from '@/web/use-hydrated';

type Send = (answers: Record<string, unknown>) => Promise<FieldErrors | null>;

function useSending(onSubmit: Send) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [sending, setSending] = useState(false);
  const hydrated = useHydrated();
  const fail = (found: FieldErrors) => {
    setErrors(found);
    setAttempt((n) => n + 1);
  };
  async function send(answers: Record<string, unknown>) {
    if (sending) return;
    setSending(true);
    try {
      const problems = await onSubmit(answers);
      if (problems) fail(problems);
    } finally {
      setSending(false);
    }
  }
  return { errors, setErrors, attempt, sending, hydrated, fail, send };
}

const paragraphs = (text: string | undefined) =>
  (text ?? '')
    .split(/\n{2,}/)
    .map((p) => p.trim())
    .filter(Boolean);

/** The landing page: the clinic's pitch and one button; saving it starts the run's step count. */
export function LandingStep({ step, onSubmit }: { step: StepOf<'landing'>; onSubmit: Send }) {
  const { errors, attempt, sending, hydrated, send } = useSending(onSubmit);
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void send({});
      }}
      className="space-y-6"
    >
      <ErrorSummary errors={errors} labels={{}} attempt={attempt} fieldId={(n) => n} />
      {paragraphs(step.blocks.body).map((p) => (
        <p key={p} className="text-base text-[var(--nl-flow-text,#334155)]">
          {p}
        </p>
      ))}
      <button type="submit" disabled={sending || !hydrated} className={primaryButton}>
        {sending ? 'One moment…' : (step.blocks.cta ?? 'Start')}
      </button>
    </form>
  );
}

/** Consent: the clinic's text and one required checkbox (ticked when `given` earlier); what is sent names the text's version. */
export function ConsentStep({ step, given = false, onSubmit }: { step: StepOf<'consent'>; given?: boolean; onSubmit: Send }) {
  const [accepted, setAccepted] = useState(given);
  const { errors, setErrors, attempt, sending, hydrated, send, fail } = useSending(onSubmit);
  const error = errors.accepted;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!accepted) return fail({ accepted: 'Tick the box to agree, or close this page if you do not.' });
        void send({ accepted: true, version: step.version });
      }}
      className="space-y-6"
    >
      <ErrorSummary errors={errors} labels={{ accepted: 'Consent' }} attempt={attempt} fieldId={() => 'consent-accept'} />
      <div id="consent-text" className="max-h-80 space-y-3 overflow-y-auto rounded-md border border-slate-300 bg-white p-4 text-base text-slate-800" tabIndex={0} role="region" aria-label="Consent text">
        {paragraphs(step.text).map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
      <div>
        <label htmlFor="consent-accept" className="flex cursor-pointer items-start gap-3 rounded-md border border-slate-300 bg-white px-3 py-3">
          <input
            id="consent-accept"
            type="checkbox"
            checked={accepted}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'consent-accept-error' : undefined}
            onChange={(e) => {
              setAccepted(e.target.checked);
              if (e.target.checked) setErrors({});
            }}
            className="mt-0.5 h-5 w-5 shrink-0 accent-indigo-700"
          />
          <span className="flex-1 text-base text-slate-900">I have read the text above and agree to it</span>
        </label>
        {error && (
          <p id="consent-accept-error" className="mt-1 text-sm font-medium text-red-700">
            <span className="sr-only">Error: </span>
            {error}
          </p>
        )}
      </div>
      <button type="submit" disabled={sending || !hydrated} className={primaryButton}>
        {sending ? 'Saving…' : 'I agree, continue'}
      </button>
    </form>
  );
}
