'use client';

import { useEffect, useRef, useState } from 'react';
import { checkForm, visibleAnswers, type RawAnswers } from './answers';
import { fieldId, QuestionField } from './question-field';
import type { FieldErrors, PatientQuestionnaire } from './types';
import { useHydrated } from '@/web/use-hydrated';

interface Props {
  questionnaire: PatientQuestionnaire;
  submitLabel?: string;
  /** What the form holds when it opens (a page shown again after going back); empty by default. */
  initial?: RawAnswers;
  /** Sends the answers of the shown questions; resolves to the problems found (by linkId, or `form`), or null when done. */
  onSubmit(answers: Record<string, unknown>): Promise<FieldErrors | null>;
}

/**
 * A questionnaire as a patient answers it (shared by the hosted link and, later, flows): questions appear as
 * earlier answers enable them, and a failed send lists its problems in a summary that takes the focus, each
 * linked to its question, each question marked invalid and described by its message.
 */
export function QuestionnaireForm({ questionnaire, submitLabel = 'Send my answers', initial, onSubmit }: Props) {
  const [raw, setRaw] = useState<RawAnswers>(() => initial ?? {});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const [sending, setSending] = useState(false);
  const hydrated = useHydrated();
  const summary = useRef<HTMLDivElement>(null);
  const { enabled, answers } = visibleAnswers(questionnaire.items, raw);

  useEffect(() => {
    if (attempt > 0) summary.current?.focus();
  }, [attempt]);

  const fail = (found: FieldErrors) => {
    setErrors(found);
    setAttempt((n) => n + 1);
  };

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (sending) return;
    const found = checkForm(questionnaire.items, raw, enabled);
    if (Object.keys(found).length) return fail(found);
    setSending(true);
    try {
      const problems = await onSubmit(answers);
      if (problems) fail(problems);
    } finally {
      setSending(false);
    }
  }

  const change = (linkId: string, value: string | string[]) => {
    setRaw((r) => ({ ...r, [linkId]: value }));
    if (errors[linkId]) setErrors(({ [linkId]: _gone, ...rest }) => rest);
  };

  const shown = questionnaire.items.filter((i) => enabled.has(i.linkId));
  const listed = Object.entries(errors).filter(([k]) => k === 'form' || enabled.has(k));
  const textOf = (linkId: string) => questionnaire.items.find((i) => i.linkId === linkId)?.text;

  return (
    <form noValidate onSubmit={submit} className="space-y-6">
      {listed.length > 0 && (
        <div ref={summary} tabIndex={-1} role="alert" aria-labelledby="intake-error-title" className="rounded-md border-2 border-red-700 bg-red-50 p-4 text-red-900 focus:outline-3 focus:outline-offset-2 focus:outline-red-700">
          <h2 id="intake-error-title" className="text-base font-semibold">
            There {listed.length === 1 ? 'is a problem' : `are ${listed.length} problems`} with your answers
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
            {listed.map(([linkId, message]) => (
              <li key={linkId}>
                {linkId === 'form' ? (
                  message
                ) : (
                  <a href={`#${fieldId(linkId)}`} className="font-medium underline">
                    {textOf(linkId)} – {message}
                  </a>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {shown.map((item) => (
        <QuestionField key={item.linkId} item={item} value={raw[item.linkId]} error={errors[item.linkId]} onChange={(v) => change(item.linkId, v)} />
      ))}
      <button
        type="submit"
        disabled={sending || !hydrated}
        className="w-full rounded-md bg-indigo-700 px-4 py-3 text-base font-semibold text-white shadow-sm hover:bg-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700 disabled:opacity-60"
      >
        {sending ? 'Sending…' : submitLabel}
      </button>
    </form>
  );
}
