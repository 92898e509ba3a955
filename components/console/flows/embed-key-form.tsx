'use client';

import { useId, useState } from 'react';
import { apiErrorOf } from '@/web/trpc/client';
import { FormActions } from '../catalog/catalog-ui';
import { QueryError, errorParam } from '../ui/query-state';

export interface EmbedKeyDraft {
  name: string;
  /** One origin per line, as typed. */
  origins: string;
  flowId: string;
}

export interface FlowOption {
  id: string;
  name: string;
}

const control =
  'mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';

export const originsOf = (text: string) =>
  text
    .split(/[\n,]/)
    .map((o) => o.trim())
    .filter(Boolean);

/** The API names a bad origin `allowedOrigins.<i>`; the person typed lines, so say which line. */
function originMessage(error: unknown, draft: EmbedKeyDraft): string | undefined {
  const param = errorParam(error);
  if (!param?.startsWith('allowedOrigins')) return undefined;
  const index = Number(param.split('.')[1]);
  const origin = Number.isInteger(index) ? originsOf(draft.origins)[index] : undefined;
  return origin ? `${origin}: ${apiErrorOf(error).message}` : apiErrorOf(error).message;
}

/**
 * An embed key's label, allowed origins and flow, for creating a key and for editing one (a pasted snippet
 * names the key, so pointing a key at another flow changes what every copy of it shows).
 */
export function EmbedKeyForm({
  initial,
  flows,
  withFlow,
  title,
  submitLabel,
  busyLabel,
  busy,
  error,
  onSubmit,
  onCancel,
}: {
  initial: EmbedKeyDraft;
  flows: readonly FlowOption[];
  withFlow: boolean;
  title: string;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (draft: EmbedKeyDraft) => void;
  onCancel?: () => void;
}) {
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const param = error ? errorParam(error) : undefined;
  const originError = error ? originMessage(error, draft) : undefined;
  const flowError = error && param === 'flowId' ? apiErrorOf(error).message : undefined;
  const nameError = error && param === 'name' ? apiErrorOf(error).message : undefined;
  const general = !!error && !originError && !flowError && !nameError;

  return (
    <form
      aria-label={title}
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(draft);
      }}
    >
      <div>
        <label htmlFor={`${id}-name`} className="block text-sm font-medium text-slate-700">
          Label <span className="font-normal text-slate-500">(optional: where it is embedded)</span>
        </label>
        <input
          id={`${id}-name`}
          value={draft.name}
          maxLength={200}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          aria-invalid={!!nameError}
          aria-describedby={nameError ? `${id}-name-error` : undefined}
          className={`${control} ${nameError ? 'border-red-400' : 'border-slate-300'}`}
        />
        <FieldMessage id={`${id}-name-error`} message={nameError} />
      </div>
      <div>
        <label htmlFor={`${id}-origins`} className="block text-sm font-medium text-slate-700">
          Allowed origins
        </label>
        <p id={`${id}-origins-help`} className="text-xs text-slate-500">
          One per line: https://clinic.example, https://*.clinic.example for its subdomains; http only for localhost. Sandbox keys also answer other origins.
        </p>
        <textarea
          id={`${id}-origins`}
          rows={3}
          value={draft.origins}
          placeholder="https://clinic.example"
          onChange={(e) => setDraft({ ...draft, origins: e.target.value })}
          aria-invalid={!!originError}
          aria-describedby={`${id}-origins-help${originError ? ` ${id}-origins-error` : ''}`}
          className={`${control} font-mono ${originError ? 'border-red-400' : 'border-slate-300'}`}
        />
        <FieldMessage id={`${id}-origins-error`} message={originError} />
      </div>
      {withFlow && (
        <div>
          <label htmlFor={`${id}-flow`} className="block text-sm font-medium text-slate-700">
            Flow it serves
          </label>
          <select
            id={`${id}-flow`}
            value={draft.flowId}
            onChange={(e) => setDraft({ ...draft, flowId: e.target.value })}
            aria-invalid={!!flowError}
            aria-describedby={flowError ? `${id}-flow-error` : undefined}
            className={`${control} ${flowError ? 'border-red-400' : 'border-slate-300'}`}
          >
            <option value="">None (public intake only)</option>
            {flows.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
          <FieldMessage id={`${id}-flow-error`} message={flowError} />
        </div>
      )}
      {general && <QueryError error={error} />}
      <FormActions submitLabel={submitLabel} busy={busy} busyLabel={busyLabel} onCancel={onCancel} />
    </form>
  );
}

function FieldMessage({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" data-testid="field-error" className="mt-1 break-words text-sm text-red-700">
      {message}
    </p>
  );
}
