'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FieldErrors } from '@/components/intake/types';
import { parentStatus, useEmbedBridge } from './embed-bridge';
import { FlowApiError, flowApi } from './flow-api';
import { afterStep, contactStep, firstClinicalStepId, firstStepId, outcomeView, positionOf, previousStepId, problemsOf, resumeStage, stepById, type Stage } from './flow-progress';
import { stepHeading } from '@/server/domain/flows/shared/shapes';
import { FlowShell } from './flow-shell';
import { OutcomePanel } from './outcome-panel';
import { clearResume, loadResume, saveResume } from './resume-store';
import { BackButton, StepBody } from './step-body';
import { primaryButton } from './error-summary';
import { contactPrefill } from './contact-prefill';
import { EmbedRefused } from './embed-refused';
import type { ContactAnswers, PublicFlow, PublicStep } from './types';

export interface EmbedOptions {
  /** The host page's origin as the server checked it against the key (null: not allowed or unknown). */
  parentOrigin: string | null;
  shop?: string | null;
  compact?: boolean;
}

interface Props {
  embedKey: string;
  /** The published definition, fetched while the page was rendered on the server (its first step is in the HTML). */
  initial: PublicFlow;
  campaign?: string | null;
  embed?: EmbedOptions;
}

const OFFLINE: FieldErrors = { form: 'We could not reach the clinic. Check your connection and try again.' };

/**
 * A patient's run through a flow: the first step arrives server-rendered; the session starts (or resumes, from
 * the id kept per key in localStorage) once the page runs; each step is saved to the public runtime, which names
 * the next one; the last one submits with an Idempotency-Key kept for retries. Focus moves to each new page's
 * heading. In a frame, progress goes to the host page as ids and verdicts only.
 */
export function FlowRunner({ embedKey, initial, campaign, embed }: Props) {
  const api = useMemo(() => flowApi(embedKey), [embedKey]);
  const [def, setDef] = useState(initial);
  const [stage, setStage] = useState<Stage>(() => ({ name: 'step', stepId: firstStepId(initial) ?? '' }));
  const [sid, setSid] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const defRef = useRef(def);
  defRef.current = def;
  const starting = useRef<Promise<string | null> | null>(null);
  const patient = useRef<Pick<ContactAnswers, 'name' | 'email'> | null>(null);
  // The answers sent per step in this visit, to show a page again after "Back": memory only, never storage.
  const [sent, setSent] = useState<Readonly<Record<string, Record<string, unknown>>>>({});
  const [saving, setSaving] = useState(false);
  const submitAttempt = useRef<{ body: string; key: string } | null>(null);
  const moved = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const post = useEmbedBridge(embed ? embed.parentOrigin : undefined, root);

  const move = useCallback((next: Stage) => {
    moved.current = true;
    setStage(next);
  }, []);

  /** Shows a step of a started session and keeps it as the resume point, so a refresh lands on it. */
  const showStep = useCallback(
    (sessionId: string, stepId: string) => {
      saveResume(embedKey, { sessionId, stepId });
      move({ name: 'step', stepId });
    },
    [embedKey, move],
  );

  const start = useCallback(async (): Promise<string | null> => {
    const saved = loadResume(embedKey);
    if (saved) {
      try {
        const s = await api.getSession(saved.sessionId);
        setDef(s.definition);
        setStage(resumeStage(s, saved.stepId));
        setSid(s.sessionId);
        return s.sessionId;
      } catch (e) {
        if (!(e instanceof FlowApiError) || e.status !== 404) return null;
        clearResume(embedKey);
      }
    }
    try {
      const created = await api.createSession(campaign ? { campaign } : {});
      setDef(created.definition);
      const first = firstStepId(created.definition);
      // A version published between the page's render and the session: start on the session's own first step.
      setStage((s) => (s.name === 'step' && stepById(created.definition, s.stepId) ? s : { name: 'step', stepId: first ?? '' }));
      saveResume(embedKey, { sessionId: created.sessionId, stepId: first });
      api.beacon(created.sessionId, 'view');
      setSid(created.sessionId);
      return created.sessionId;
    } catch {
      return null;
    }
  }, [api, campaign, embedKey]);

  const ensureSession = useCallback(async () => {
    starting.current ??= start();
    const id = await starting.current;
    if (!id) starting.current = null;
    return id;
  }, [start]);

  useEffect(() => {
    if (embed && parentStatus(embed.parentOrigin) === 'refused') {
      setRefused(true);
      return;
    }
    void ensureSession();
  }, [embed, ensureSession]);

  // Ready once, when the session is known; then each page shown is a beacon and a step event.
  const readySent = useRef(false);
  useEffect(() => {
    if (!sid) return;
    if (!readySent.current) {
      readySent.current = true;
      post('ready', { mode: 'flow', embedKey, flowId: def.flowId, versionId: def.versionId, sessionId: sid, stepCount: positionOf(def, firstStepId(def) ?? '')?.count ?? 0 });
    }
    if (stage.name === 'step' && stage.stepId) {
      api.beacon(sid, 'step_viewed', stage.stepId);
      const at = positionOf(def, stage.stepId);
      post('step', { mode: 'flow', flowId: def.flowId, sessionId: sid, stepId: stage.stepId, stepIndex: at?.index, stepCount: at?.count });
    }
  }, [sid, stage, def, api, post, embedKey]);

  useEffect(() => {
    if (!moved.current) return;
    heading.current?.focus();
    if (!embed) window.scrollTo(0, 0);
  }, [stage, embed]);

  const restart = useCallback(() => {
    clearResume(embedKey);
    starting.current = null;
    patient.current = null;
    setSent({});
    submitAttempt.current = null;
    setSid(null);
    setNotice(null);
    move({ name: 'step', stepId: firstStepId(defRef.current) ?? '' });
    void ensureSession();
  }, [embedKey, ensureSession, move]);

  const refusedCall = useCallback(
    async (e: unknown): Promise<FieldErrors | null> => {
      if (!(e instanceof FlowApiError)) return OFFLINE;
      if (e.status === 404) {
        clearResume(embedKey);
        starting.current = null;
        setSid(null);
        move({ name: 'expired' });
        return null;
      }
      if (e.status === 409 && e.code === 'session_completed' && sid) {
        const s = await api.getSession(sid).catch(() => null);
        if (s) {
          move(resumeStage(s));
          return null;
        }
      }
      return problemsOf(e);
    },
    [api, embedKey, move, sid],
  );

  async function submit(id: string): Promise<FieldErrors | null> {
    const who = patient.current;
    const contact = contactStep(defRef.current);
    if (!who) {
      if (!contact) return { form: 'This form cannot be finished right now. Please contact the clinic.' };
      setNotice('Please confirm your contact details to see your result.');
      showStep(id, contact.id);
      return null;
    }
    // The same key for a retry of the same send, so a lost answer is replayed, not submitted twice.
    const body = JSON.stringify(who);
    if (submitAttempt.current?.body !== body) submitAttempt.current = { body, key: crypto.randomUUID() };
    let result;
    try {
      result = await api.submit(id, who, submitAttempt.current.key);
    } catch (e) {
      return refusedCall(e);
    }
    if (result.verdict === 'incomplete') {
      submitAttempt.current = null;
      setNotice(result.message || 'Some answers are missing. Please check your answers and continue.');
      showStep(id, firstClinicalStepId(defRef.current) ?? '');
      return null;
    }
    saveResume(embedKey, { sessionId: id, stepId: null });
    const outcome = outcomeView(defRef.current, result);
    setNotice(null);
    move({ name: 'outcome', outcome });
    const detail = { mode: 'flow' as const, flowId: defRef.current.flowId, sessionId: id, verdict: outcome.verdict, ...(result.submissionId ? { submissionId: result.submissionId } : {}) };
    if (outcome.verdict === 'eligible') post('qualified', detail);
    post('completed', detail);
    return null;
  }

  async function saveAndGo(step: PublicStep, answers: Record<string, unknown>): Promise<FieldErrors | null> {
    const id = await ensureSession();
    if (!id) return OFFLINE;
    if (step.kind === 'contact') patient.current = { name: String(answers.name), email: String(answers.email) };
    let saved;
    try {
      saved = await api.saveStep(id, step.id, answers);
    } catch (e) {
      return refusedCall(e);
    }
    setSent((held) => ({ ...held, [step.id]: answers }));
    api.beacon(id, 'step_completed', step.id);
    setNotice(null);
    const next = afterStep(defRef.current, saved.nextStepId, step.id);
    if (next.submit) return submit(id);
    showStep(id, next.stepId);
    return null;
  }

  // "Back" waits for a save in flight: its answer would otherwise move the patient on after they went back.
  async function save(step: PublicStep, answers: Record<string, unknown>): Promise<FieldErrors | null> {
    setSaving(true);
    try {
      return await saveAndGo(step, answers);
    } finally {
      setSaving(false);
    }
  }

  /** The previous step on the session's path, with the answers given there in this visit; the resume point follows. */
  const back = (from: string) => {
    const previous = previousStepId(defRef.current, from);
    if (!previous || saving) return;
    setNotice(null);
    if (sid) showStep(sid, previous);
    else move({ name: 'step', stepId: previous });
  };

  const shell = { cssVariables: def.theme.cssVariables, embedded: Boolean(embed), compact: embed?.compact, sandbox: def.sandbox, headingRef: heading, rootRef: root };

  if (refused) return <EmbedRefused cssVariables={def.theme.cssVariables} />;
  if (stage.name === 'expired') {
    return (
      <FlowShell {...shell} title="Your session has ended">
        <p className="mb-6 text-base">Unfinished answers are kept for a limited time only. Start again to continue.</p>
        <button type="button" onClick={restart} className={primaryButton}>
          Start again
        </button>
      </FlowShell>
    );
  }
  if (stage.name === 'outcome') {
    return (
      <FlowShell {...shell} title={stage.outcome.title}>
        <OutcomePanel outcome={stage.outcome} embedded={Boolean(embed)} shop={embed?.shop} />
      </FlowShell>
    );
  }

  const step = stepById(def, stage.stepId) ?? def.steps[0];
  if (!step) return <FlowShell {...shell} title="This form is not available">{null}</FlowShell>;
  const onSubmit = (answers: Record<string, unknown>) => save(step, answers);
  const lastBeforeSubmit = afterStep(def, def.steps[def.steps.indexOf(step) + 1]?.id ?? null).submit;
  const canGoBack = previousStepId(def, step.id) !== null;
  return (
    <FlowShell {...shell} title={stepHeading(step)} progress={positionOf(def, step.id)}>
      {notice && (
        <p role="alert" className="mb-6 rounded-md border-2 border-amber-600 bg-amber-50 p-4 text-base text-amber-950">
          {notice}
        </p>
      )}
      <StepBody key={step.id} step={step} remembered={sent[step.id]} prefill={contactPrefill(step, sent)} onSubmit={onSubmit} last={lastBeforeSubmit} />
      {canGoBack && <BackButton onBack={() => back(step.id)} disabled={saving} />}
    </FlowShell>
  );
}
