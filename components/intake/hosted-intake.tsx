'use client';

import { useEffect, useRef, useState } from 'react';
import { IntakeShell } from './intake-shell';
import { IntakeOutcome } from './outcome-summary';
import { QuestionnaireForm } from './questionnaire-form';
import type { FieldErrors, PatientOutcome, PatientQuestionnaire } from './types';

interface ErrorBody {
  error?: { code?: string; param?: string; details?: { param?: string }[] };
}

const linkIdOf = (param: string | undefined) => (param?.startsWith('answers.') ? param.slice('answers.'.length) : undefined);

/** The server's refusal in the patient's words, by question; its messages are written for developers. */
function problemsOf(status: number, body: ErrorBody): FieldErrors {
  const err = body.error ?? {};
  const params = [err.param, ...(err.details ?? []).map((d) => d.param)];
  const found: FieldErrors = {};
  for (const linkId of params.map(linkIdOf)) {
    if (linkId) found[linkId] = err.code === 'intake_incomplete' ? 'Answer this question.' : 'This answer is not valid. Check it and try again.';
  }
  if (Object.keys(found).length) return found;
  if (status === 429) return { form: 'Too many attempts. Wait a minute, then send your answers again.' };
  return { form: 'We could not send your answers. Check your connection and try again.' };
}

/**
 * The page behind a one-time link: the questionnaire, sent to the public endpoint with an Idempotency-Key that
 * is kept while the answers stay the same, so a retry after a lost response is answered, not refused as used.
 */
export function HostedIntake({ token, clinicName, questionnaire }: { token: string; clinicName: string; questionnaire: PatientQuestionnaire }) {
  const [outcome, setOutcome] = useState<PatientOutcome | null>(null);
  const [gone, setGone] = useState(false);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (outcome || gone) heading.current?.focus();
  }, [outcome, gone]);

  async function send(answers: Record<string, unknown>): Promise<FieldErrors | null> {
    const body = JSON.stringify({ answers });
    if (attempt.current?.body !== body) attempt.current = { body, key: crypto.randomUUID() };
    let res: Response;
    try {
      res = await fetch(`/v1/public/intake/hosted/${encodeURIComponent(token)}/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': attempt.current.key },
        body,
      });
    } catch {
      return { form: 'We could not send your answers. Check your connection and try again.' };
    }
    const parsed = (await res.json().catch(() => ({}))) as ErrorBody & Partial<PatientOutcome>;
    if (res.ok) {
      setOutcome(parsed as PatientOutcome);
      return null;
    }
    if (res.status === 404) {
      setGone(true);
      return null;
    }
    return problemsOf(res.status, parsed);
  }

  if (gone) {
    return (
      <IntakeShell title="This link is no longer valid" clinicName={clinicName} headingRef={heading}>
        <p className="text-base text-slate-700">It has been used or has expired. If you still need to answer, ask your clinic to send you a new link.</p>
      </IntakeShell>
    );
  }
  if (outcome) {
    return (
      <IntakeShell title={outcome.verdict === 'eligible' ? 'Thank you, your answers were sent' : 'Thank you for your answers'} clinicName={clinicName} headingRef={heading}>
        <IntakeOutcome outcome={outcome} />
      </IntakeShell>
    );
  }
  return (
    <IntakeShell title={questionnaire.title} clinicName={clinicName}>
      {questionnaire.description && <p className="mb-6 text-base text-slate-700">{questionnaire.description}</p>}
      <QuestionnaireForm questionnaire={questionnaire} onSubmit={send} />
    </IntakeShell>
  );
}
