'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import { IntakeOutcome } from '@/components/intake/outcome-summary';
import { QuestionnaireForm } from '@/components/intake/questionnaire-form';
import type { FieldErrors, PatientQuestionnaire } from '@/components/intake/types';
import { ContactForm } from './contact-form';
import { parentStatus, useEmbedBridge } from './embed-bridge';
import { FlowApiError } from './flow-api';
import { problemsOf } from './flow-progress';
import { FlowShell } from './flow-shell';
import { EmbedRefused } from './embed-refused';
import type { ContactAnswers } from './types';

interface Outcome {
  submissionId: string;
  verdict: 'eligible' | 'disqualified';
  message: string;
  patientMessages: string[];
  reference?: string;
}

interface Props {
  embedKey: string;
  questionnaire: PatientQuestionnaire;
  sandbox: boolean;
  parentOrigin: string | null;
  compact?: boolean;
}

const PATIENT_FIELDS = new Set(['name', 'email', 'state', 'dateOfBirth', 'phone', 'smsConsent', 'address']);

/** The details as public intake's `patient`: the address nested, its state the patient's state. */
function patientOf(v: ContactAnswers) {
  const address = { line1: v.addressLine1, ...(v.addressLine2 && { line2: v.addressLine2 }), city: v.city, postalCode: v.postalCode };
  return { name: v.name, email: v.email, state: v.state, dateOfBirth: v.dateOfBirth, phone: v.phone, ...(v.smsConsent && { smsConsent: true }), address };
}

/** The questionnaire opens with the facts just given in the details (date of birth, state), so they agree. */
function factAnswers(questionnaire: PatientQuestionnaire, v: ContactAnswers | null): Record<string, string> {
  const initial: Record<string, string> = {};
  for (const item of questionnaire.items) {
    if (item.fact === 'dateOfBirth' && v?.dateOfBirth) initial[item.linkId] = v.dateOfBirth;
    if (item.fact === 'state' && v?.state) initial[item.linkId] = v.state;
  }
  return initial;
}

async function send(embedKey: string, body: string, idempotencyKey: string): Promise<Outcome> {
  let res: Response;
  try {
    res = await fetch(`/v1/public/intake/${encodeURIComponent(embedKey)}/submissions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body,
      credentials: 'omit',
    });
  } catch {
    throw new FlowApiError(0, undefined, []);
  }
  const parsed = (await res.json().catch(() => ({}))) as Outcome & { error?: { code?: string; param?: string; details?: { param?: string }[] } };
  if (res.ok) return parsed;
  const details = Array.isArray(parsed.error?.details) ? parsed.error.details.map((d) => d.param) : [];
  throw new FlowApiError(res.status, parsed.error?.code, [parsed.error?.param, ...details].filter((p): p is string => typeof p === 'string'));
}

/**
 * The intake widget's frame (`/embed/frame?t=intake`): the patient's details, then the clinic's approved
 * questionnaire, sent to the public intake API with an Idempotency-Key kept for retries of the same answers.
 * The host page hears `ready`, `step`, `qualified` and `completed` with ids and the verdict only.
 */
export function PublicIntakeFrame({ embedKey, questionnaire, sandbox, parentOrigin, compact }: Props) {
  const [stage, setStage] = useState<'details' | 'questions' | 'done'>('details');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [refused, setRefused] = useState(false);
  const person = useRef<ContactAnswers | null>(null);
  const attempt = useRef<{ body: string; key: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  const post = useEmbedBridge(parentOrigin, root);
  const base = { mode: 'intake' as const, embedKey, questionnaireKey: questionnaire.key };

  useEffect(() => {
    if (parentStatus(parentOrigin) === 'refused') setRefused(true);
    else post('ready', { ...base, stepId: 'details', stepIndex: 1, stepCount: 2 });
    // Once, on load: `post` and the ids do not change for the life of the frame.
  }, []);

  const go = useCallback(
    (next: 'details' | 'questions' | 'done') => {
      moved.current = true;
      setStage(next);
      if (next !== 'done') post('step', { mode: 'intake', embedKey, questionnaireKey: questionnaire.key, stepId: next, stepIndex: next === 'details' ? 1 : 2, stepCount: 2 });
    },
    [embedKey, post, questionnaire.key],
  );

  useEffect(() => {
    if (moved.current) heading.current?.focus();
  }, [stage]);

  async function submit(answers: Record<string, unknown>): Promise<FieldErrors | null> {
    const who = person.current!;
    const body = JSON.stringify({ questionnaireKey: questionnaire.key, patient: patientOf(who), answers });
    if (attempt.current?.body !== body) attempt.current = { body, key: crypto.randomUUID() };
    try {
      const result = await send(embedKey, body, attempt.current.key);
      setOutcome(result);
      go('done');
      const detail = { ...base, submissionId: result.submissionId, verdict: result.verdict };
      if (result.verdict === 'eligible') post('qualified', detail);
      post('completed', detail);
      return null;
    } catch (e) {
      const problem = e instanceof FlowApiError ? e : new FlowApiError(0, undefined, []);
      if (problem.code === 'intake_incomplete') {
        return Object.fromEntries(problem.params.filter((p) => p.startsWith('answers.')).map((p) => [p.slice('answers.'.length), 'Answer this question.']));
      }
      const found = problemsOf(problem);
      if (problem.code === 'fact_mismatch') return { form: 'Your answers and your details give a different date of birth or state. Change your details or your answers so they are the same.' };
      if (Object.keys(found).some((k) => PATIENT_FIELDS.has(k.split('.')[0]))) return { form: 'Some of your details were not accepted. Go back to your details, check them and send again.' };
      return found;
    }
  }

  const shell = { cssVariables: {}, embedded: true, compact, sandbox, headingRef: heading, rootRef: root };
  if (refused) return <EmbedRefused cssVariables={{}} />;
  if (stage === 'done' && outcome) {
    return (
      <FlowShell {...shell} title={outcome.verdict === 'eligible' ? 'Thank you, your answers were sent' : 'Thank you for your answers'}>
        <IntakeOutcome outcome={outcome} />
      </FlowShell>
    );
  }
  if (stage === 'questions') {
    return (
      <FlowShell {...shell} title={questionnaire.title} progress={{ index: 2, count: 2 }}>
        {questionnaire.description && <p className="mb-6 text-base">{questionnaire.description}</p>}
        <QuestionnaireForm questionnaire={questionnaire} initial={factAnswers(questionnaire, person.current)} onSubmit={submit} />
        <button type="button" onClick={() => go('details')} className="mt-4 w-full rounded-md px-4 py-3 text-base font-medium text-indigo-700 underline">
          Change my details
        </button>
      </FlowShell>
    );
  }
  return (
    <FlowShell {...shell} title="About you" progress={{ index: 1, count: 2 }}>
      <ContactForm
        initial={person.current ?? undefined}
        onSubmit={async (v) => {
          person.current = v;
          go('questions');
          return null;
        }}
      />
    </FlowShell>
  );
}
