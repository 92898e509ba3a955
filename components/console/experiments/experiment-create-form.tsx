'use client';

import { useMutation } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { apiErrorOf, useTRPC } from '@/web/trpc/client';
import { isClinicalStep, THEME_TOKENS, type ThemeToken } from '@/server/domain/flows/shared/shapes';
import { BusyButton, TextAreaField } from '../catalog/catalog-ui';
import { KIND_LABEL } from '../flows/flow-steps';
import { ArmsPreview } from './arms-preview';
import type { Experiment } from './experiment-types';
import { copyFields, overrideOfParam, parseOverrides, variantPreview, withCopyChange, withThemeToken, type PreviewDocument } from './experiment-preview';

const input = 'mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';
const labelCls = 'block text-sm font-medium text-slate-700';

function CreateError({ error, sent }: { error: unknown; sent: readonly { stepId: string }[] }) {
  const { message, data } = apiErrorOf(error);
  const stepId = overrideOfParam(data?.param, sent);
  return (
    <div role="alert" data-testid="create-error" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      <p className="font-semibold">The experiment was not started; nothing changed.</p>
      {stepId && <p>Step “{stepId}”</p>}
      <p className="break-words">{message}</p>
      {data?.param && (
        <p className="mt-1 break-all font-mono text-xs" data-testid="create-error-param">
          Field: {data.param}
        </p>
      )}
    </div>
  );
}

/**
 * A new experiment: its name, the variant's share of new sessions, and the overrides (copy of presentation
 * steps, theme tokens, order), built with the pickers or typed as JSON, previewed against the control.
 */
export function ExperimentCreateForm({ flowId, control, onCreated }: { flowId: string; control: PreviewDocument; onCreated: (e: Experiment) => void }) {
  const id = useId();
  const trpc = useTRPC();
  const [name, setName] = useState('');
  const [split, setSplit] = useState('50');
  const [text, setText] = useState('[]');
  const [stepId, setStepId] = useState(control.steps[0]?.id ?? '');
  const step = control.steps.find((s) => s.id === stepId);
  const [field, setField] = useState(step ? copyFields(step)[0] : '');
  const [copy, setCopy] = useState('');
  const [token, setToken] = useState<ThemeToken>('primary');
  const [tokenValue, setTokenValue] = useState('');
  const [sent, setSent] = useState<{ stepId: string }[]>([]);
  const create = useMutation(trpc.experiments.create.mutationOptions({ onSuccess: onCreated }));

  const parsed = useMemo(() => parseOverrides(text), [text]);
  const preview = useMemo(() => ('overrides' in parsed ? variantPreview(control, parsed.overrides) : null), [control, parsed]);
  const current = 'overrides' in parsed ? parsed.overrides : null;
  const write = (next: unknown) => setText(JSON.stringify(next, null, 2));

  function submit() {
    if (!current) return;
    setSent(current);
    create.mutate({ id: flowId, name, splitPct: Number(split), overrides: current });
  }

  return (
    <form
      aria-label="Start an experiment"
      className="space-y-4 rounded-lg border border-slate-200 bg-white p-4"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 className="font-semibold">Start an experiment</h2>
      <p className="text-sm text-slate-600">
        The variant may change only the presentation: the copy of landing, quiz and outcome pages, theme tokens and the order of those pages. Medical questions, consent and contact
        details stay exactly as the provider approved them, so both arms reach the same clinical decision.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-name`} className={labelCls}>
            Experiment name
          </label>
          <input id={`${id}-name`} required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} className={input} />
        </div>
        <div>
          <label htmlFor={`${id}-split`} className={labelCls}>
            Variant share of new sessions (%)
          </label>
          <input id={`${id}-split`} type="number" min={0} max={100} step={0.01} required value={split} onChange={(e) => setSplit(e.target.value)} className={input} />
        </div>
      </div>

      <fieldset className="space-y-2 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Change the copy of a step</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <label htmlFor={`${id}-step`} className={labelCls}>
              Step
            </label>
            <select
              id={`${id}-step`}
              value={stepId}
              onChange={(e) => {
                setStepId(e.target.value);
                const next = control.steps.find((s) => s.id === e.target.value);
                if (next) setField(copyFields(next)[0]);
              }}
              className={input}
            >
              {control.steps.map((s) => (
                <option key={s.id} value={s.id}>
                  {KIND_LABEL[s.kind]} “{s.id}”{isClinicalStep(s) ? ' (clinical, locked)' : ''}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-field`} className={labelCls}>
              Field
            </label>
            <select id={`${id}-field`} value={field} onChange={(e) => setField(e.target.value)} className={input}>
              {(step ? copyFields(step) : []).map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-copy`} className={labelCls}>
              Variant text
            </label>
            <input id={`${id}-copy`} value={copy} onChange={(e) => setCopy(e.target.value)} className={input} />
          </div>
        </div>
        <BusyButton variant="secondary" disabled={!current || !stepId || !field} onClick={() => current && write(withCopyChange(current, stepId, field, copy))}>
          Add copy change
        </BusyButton>
      </fieldset>

      <fieldset className="space-y-2 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-slate-800">Change a theme token</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-token`} className={labelCls}>
              Token
            </label>
            <select id={`${id}-token`} value={token} onChange={(e) => setToken(e.target.value as ThemeToken)} className={input}>
              {THEME_TOKENS.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-token-value`} className={labelCls}>
              Variant value (empty removes it)
            </label>
            <input id={`${id}-token-value`} value={tokenValue} onChange={(e) => setTokenValue(e.target.value)} className={input} />
          </div>
        </div>
        <BusyButton variant="secondary" disabled={!current} onClick={() => current && write(withThemeToken(current, token, tokenValue))}>
          Set token
        </BusyButton>
      </fieldset>

      <TextAreaField
        label="Overrides (JSON; `$flow` takes theme and order)"
        id={`${id}-overrides`}
        rows={6}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        aria-describedby={`${id}-overrides-note`}
      />
      <div id={`${id}-overrides-note`} className="space-y-1 text-sm">
        {'error' in parsed && (
          <p className="text-red-800" data-testid="overrides-invalid">
            {parsed.error}
          </p>
        )}
        {preview?.notes.map((n) => (
          <p key={`${n.index}-${n.text}`} data-testid="preview-note" className="text-amber-900">
            Override {n.index + 1} (“{n.stepId}”): {n.text}
          </p>
        ))}
      </div>

      {preview && (
        <div className="space-y-2">
          <h3 className="text-sm font-semibold text-slate-800">Preview of both arms</h3>
          <ArmsPreview control={control} variant={preview.document} />
        </div>
      )}

      {create.isError && <CreateError error={create.error} sent={sent} />}
      <BusyButton type="submit" busy={create.isPending} busyLabel="Starting…" disabled={!current}>
        Start experiment
      </BusyButton>
    </form>
  );
}
