'use client';

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FieldErrors } from '@/components/intake/types';
import { parentStatus, useEmbedBridge } from './embed-bridge';
import { FlowApiError, flowApi } from './flow-api';
import {
  afterStep,
  contactStep,
  factStep,
  fieldsOf,
  firstClinicalStepId,
  firstStepId,
  isFactField,
  outcomeView,
  positionOf,
  previousStepId,
  problemsOf,
  reachableStep,
  resumeStage,
  stepById,
  type FactField,
  type Stage,
} from './flow-progress';
import { stepHeading } from '@/server/domain/flows/shared/shapes';
import { FlowShell } from './flow-shell';
import { OutcomePanel } from './outcome-panel';
import { clearResume, loadResume, saveResume } from './resume-store';
import { BackButton, StepBody } from './step-body';
import { primaryButton } from './error-summary';
import { contactPrefill } from './contact-prefill';
import { EmbedRefused } from './embed-refused';
import type { EarlierAnswer } from './contact-form';
import { belowIs, pushStep, replaceStep, stepEntry, type StepEntry } from './step-history';
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

type Answered = Readonly<Record<string, Record<string, unknown>>>;

/** The name and e-mail the submit sends, from the contact step's answers read back (live mode holds them). */
function personOf(def: PublicFlow, answers: Answered): Pick<ContactAnswers, 'name' | 'email'> | null {
  const contact = contactStep(def);
  const held = contact ? answers[contact.id] : undefined;
  return typeof held?.name === 'string' && typeof held.email === 'string' ? { name: held.name, email: held.email } : null;
}

/** For each contact field refused as differing from an earlier answer, the step where it was given and the way there. */
function earlierAnswers(def: PublicFlow, fields: readonly FactField[], go: (stepId: string) => void): Partial<Record<FactField, EarlierAnswer>> {
  const out: Partial<Record<FactField, EarlierAnswer>> = {};
  for (const field of fields) {
    const where = factStep(def, field);
    if (where) out[field] = { title: where.title, go: () => go(where.stepId) };
  }
  return out;
}

/**
 * A patient's run through a flow: the first step arrives server-rendered; the session starts (or resumes, from
 * the id kept per key in localStorage) once the page runs; each step is saved to the public runtime, which names
 * the next one; the last one submits with an Idempotency-Key kept for retries. Focus moves to each new page's
 * heading. A resumed session shows what was answered (DESIGN decision 44: the server gives the session its own
 * answers back for a while). On the hosted page each step is a history entry, so the browser's Back and Forward
 * move between steps (step-history.ts); in a frame the host page's history is left alone. In a frame, progress
 * goes to the host page as ids and verdicts only.
 */
export function FlowRunner({ embedKey, initial, campaign, embed }: Props) {
  const api = useMemo(() => flowApi(embedKey), [embedKey]);
  const ownsHistory = !embed;
  const [def, setDef] = useState(initial);
  const [stage, setStage] = useState<Stage>(() => ({ name: 'step', stepId: firstStepId(initial) ?? '' }));
  const [sid, setSid] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const defRef = useRef(def);
  defRef.current = def;
  const stageRef = useRef(stage);
  stageRef.current = stage;
  const sidRef = useRef(sid);
  sidRef.current = sid;
  const starting = useRef<Promise<string | null> | null>(null);
  const patient = useRef<Pick<ContactAnswers, 'name' | 'email'> | null>(null);
  // The answers per step, to show a page again after "Back": those sent in this visit, and those the server gave
  // back to a resumed session. Memory only, never storage.
  const [sent, setSent] = useState<Answered>({});
  // Bumped when answers are read back, so a page already shown opens again with them.
  const [readBack, setReadBack] = useState(0);
  // Contact fields the server refused as differing from an earlier answer: the page offers the way to that answer.
  const [mismatched, setMismatched] = useState<FactField[]>([]);
  const [saving, setSaving] = useState(false);
  const submitAttempt = useRef<{ body: string; key: string } | null>(null);
  const moved = useRef(false);
  // The server's next step (null: every step saved; undefined: no session yet): how far Forward may go.
  const frontier = useRef<string | null | undefined>(undefined);
  // The history entry the page opened on (a reload, a restored tab, Back or Forward into the page), and the
  // current one's depth; `traversed` counts the browser's moves, so a save in flight does not move on after one.
  const arrival = useRef<StepEntry | null>(null);
  const arrived = useRef(false);
  const depth = useRef(0);
  const traversed = useRef(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const post = useEmbedBridge(embed ? embed.parentOrigin : undefined, root);

  const move = useCallback((next: Stage) => {
    moved.current = true;
    setStage(next);
  }, []);

  /** Puts the step shown into the browser's history (hosted page only): a new entry, or the current one. */
  const record = useCallback(
    (stepId: string, how: 'push' | 'replace') => {
      if (ownsHistory && stepId) depth.current = (how === 'push' ? pushStep : replaceStep)(stepId).depth;
    },
    [ownsHistory],
  );

  /** Shows a step of a started session and keeps it as the resume point, so a refresh lands on it. */
  const showStep = useCallback(
    (sessionId: string, stepId: string, how: 'push' | 'replace' = 'push') => {
      saveResume(embedKey, { sessionId, stepId });
      record(stepId, how);
      move({ name: 'step', stepId });
    },
    [embedKey, move, record],
  );

  const start = useCallback(async (): Promise<string | null> => {
    const saved = loadResume(embedKey);
    if (saved) {
      try {
        const s = await api.getSession(saved.sessionId);
        const answers = s.answers ?? {};
        setDef(s.definition);
        setSent(answers);
        setReadBack((n) => n + 1);
        patient.current = personOf(s.definition, answers);
        frontier.current = s.status === 'open' ? s.nextStepId : null;
        // The step of the entry the page opened on (Back or Forward into the page, a restored tab), else the last one shown.
        const resumed = resumeStage(s, arrival.current?.stepId ?? saved.stepId);
        setStage(resumed);
        if (resumed.name === 'step') {
          saveResume(embedKey, { sessionId: s.sessionId, stepId: resumed.stepId });
          record(resumed.stepId, 'replace');
        }
        setSid(s.sessionId);
        return s.sessionId;
      } catch (e) {
        if (!(e instanceof FlowApiError) || e.status !== 404) return null;
        clearResume(embedKey);
      }
    }
    try {
      const created = await api.createSession(campaign ? { campaign } : {});
      // The page's own definition when the session runs the same one (most visits): nothing to render again on a
      // phone's main thread. Another (an experiment's arm, a version published since the render) replaces it.
      setDef((shown) => (JSON.stringify(shown) === JSON.stringify(created.definition) ? shown : created.definition));
      const first = firstStepId(created.definition);
      frontier.current = first;
      // A new session starts on its own first step (of a version published since the page's render, perhaps).
      setStage((shown) => (shown.name === 'step' && shown.stepId === (first ?? '') ? shown : { name: 'step', stepId: first ?? '' }));
      record(first ?? '', 'replace');
      saveResume(embedKey, { sessionId: created.sessionId, stepId: first });
      api.beacon(created.sessionId, 'view');
      setSid(created.sessionId);
      return created.sessionId;
    } catch {
      return null;
    }
  }, [api, campaign, embedKey, record]);

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
    if (ownsHistory && !arrived.current) {
      arrived.current = true;
      arrival.current = stepEntry();
      if (arrival.current) depth.current = arrival.current.depth;
      else record(firstStepId(initial) ?? '', 'replace');
    }
    void ensureSession();
  }, [embed, ensureSession, ownsHistory, record, initial]);

  // The browser's Back and Forward between the flow's entries: the entry's step, as far as the run has reached.
  // The page's own: Next.js's router, which would treat it as a traversal between its routes and load the page
  // again (the URL is the same, its state has not changed), never sees it. A capturing listener on the window
  // runs before Next.js's, and stops it.
  useEffect(() => {
    if (!ownsHistory) return;
    const onPopState = (event: PopStateEvent) => {
      const entry = stepEntry(event.state);
      if (!entry) return;
      event.stopImmediatePropagation();
      traversed.current += 1;
      const from = depth.current;
      depth.current = entry.depth;
      const now = stageRef.current;
      // A finished run has no step to go back to: Back leaves the page, past the flow's entries below.
      if (now.name === 'outcome' && entry.depth < from) window.history.go(-(entry.depth + 1));
      if (now.name !== 'step') return;
      const stepId = reachableStep(defRef.current, entry.stepId, frontier.current);
      if (stepId !== entry.stepId) record(stepId, 'replace');
      setNotice(null);
      setMismatched([]);
      if (sidRef.current) saveResume(embedKey, { sessionId: sidRef.current, stepId });
      move({ name: 'step', stepId });
    };
    window.addEventListener('popstate', onPopState, { capture: true });
    return () => window.removeEventListener('popstate', onPopState, { capture: true });
  }, [ownsHistory, embedKey, move, record]);

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
    frontier.current = undefined;
    setSent({});
    setMismatched([]);
    submitAttempt.current = null;
    setSid(null);
    setNotice(null);
    const first = firstStepId(defRef.current) ?? '';
    record(first, 'replace');
    move({ name: 'step', stepId: first });
    void ensureSession();
  }, [embedKey, ensureSession, move, record]);

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
      // A date of birth or state that differs from an earlier answer: the message names its step, the page leads there.
      if (e.code === 'fact_mismatch') setMismatched(fieldsOf(e).filter(isFactField));
      return problemsOf(e, defRef.current);
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
    const moves = traversed.current;
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
    frontier.current = saved.nextStepId;
    // The patient went elsewhere with the browser's Back or Forward meanwhile: the answers are saved, the page stays.
    if (traversed.current !== moves) return null;
    setNotice(null);
    const next = afterStep(defRef.current, saved.nextStepId, step.id);
    if (next.submit) return submit(id);
    showStep(id, next.stepId);
    return null;
  }

  // "Back" waits for a save in flight: its answer would otherwise move the patient on after they went back.
  async function save(step: PublicStep, answers: Record<string, unknown>): Promise<FieldErrors | null> {
    setSaving(true);
    setMismatched([]);
    try {
      return await saveAndGo(step, answers);
    } finally {
      setSaving(false);
    }
  }

  /**
   * The previous step on the session's path, with the answers given there; the resume point follows. When the
   * history entry below is that step, this is the browser's Back (its popstate shows the step), so the entries
   * stay one per step; otherwise the current entry becomes the previous step.
   */
  const back = (from: string) => {
    const previous = previousStepId(defRef.current, from);
    if (!previous || saving) return;
    setNotice(null);
    setMismatched([]);
    if (ownsHistory && belowIs(previous)) window.history.back();
    else if (sid) showStep(sid, previous, 'replace');
    else {
      record(previous, 'replace');
      move({ name: 'step', stepId: previous });
    }
  };

  /** To the step where an answer the contact details must agree with was given (a mismatch's way there). */
  const goTo = (stepId: string) => {
    if (!sid || saving) return;
    setNotice(null);
    setMismatched([]);
    showStep(sid, stepId);
  };

  // What the step's form calls, always with this render's state: StepBody keeps the handlers of the last time it
  // was drawn when nothing it shows has changed (step-body.tsx), so they go through this ref.
  const latest = useRef({ save, goTo });
  latest.current = { save, goTo };

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
  const onSubmit = (answers: Record<string, unknown>) => latest.current.save(step, answers);
  const lastBeforeSubmit = afterStep(def, def.steps[def.steps.indexOf(step) + 1]?.id ?? null).submit;
  const canGoBack = previousStepId(def, step.id) !== null;
  return (
    <FlowShell {...shell} title={stepHeading(step)} progress={positionOf(def, step.id)}>
      {notice && (
        <p role="alert" className="mb-6 rounded-md border-2 border-amber-600 bg-amber-50 p-4 text-base text-amber-950">
          {notice}
        </p>
      )}
      <StepBody
        key={`${step.id}:${readBack}`}
        step={step}
        remembered={sent[step.id]}
        prefill={contactPrefill(step, sent)}
        earlier={step.kind === 'contact' ? earlierAnswers(def, mismatched, (stepId) => latest.current.goTo(stepId)) : undefined}
        onSubmit={onSubmit}
        last={lastBeforeSubmit}
      />
      {canGoBack && <BackButton onBack={() => back(step.id)} disabled={saving} />}
    </FlowShell>
  );
}
