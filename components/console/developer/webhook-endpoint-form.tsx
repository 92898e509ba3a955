'use client';

import { useId, useState } from 'react';
import { apiErrorOf } from '@/web/trpc/client';
import { FormActions } from '../catalog/catalog-ui';
import { QueryError, errorParam } from '../ui/query-state';

export interface EndpointDraft {
  url: string;
  description: string;
  events: string[];
}

const FIELDS = ['url', 'description', 'events'] as const;
type FieldName = (typeof FIELDS)[number];

const control =
  'mt-1 block w-full rounded-md border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-1 focus:ring-indigo-500 focus:outline-none';

/**
 * The endpoint's URL, note and events, for adding one and for editing one. A refusal that names one of these
 * fields is shown under that field (the API's own words); any other refusal is shown above the buttons.
 */
export function WebhookEndpointForm({
  initial,
  eventTypes,
  submitLabel,
  busyLabel,
  busy,
  error,
  onSubmit,
  onCancel,
  title,
}: {
  initial: EndpointDraft;
  eventTypes: readonly string[];
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  error: unknown;
  onSubmit: (draft: EndpointDraft) => void;
  onCancel?: () => void;
  title: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState(initial);
  const param = error ? errorParam(error) : undefined;
  const fieldError = (name: FieldName) => (error && param === name ? apiErrorOf(error).message : undefined);
  const general = !!error && !FIELDS.includes(param as FieldName);
  const described = (name: FieldName) => (fieldError(name) ? `${id}-${name}-error` : undefined);

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
        <label htmlFor={`${id}-url`} className="block text-sm font-medium text-slate-700">
          Endpoint URL
        </label>
        <input
          id={`${id}-url`}
          name="url"
          type="url"
          required
          placeholder="https://clinic.example/webhooks"
          value={draft.url}
          onChange={(e) => setDraft({ ...draft, url: e.target.value })}
          aria-invalid={!!fieldError('url')}
          aria-describedby={described('url')}
          className={`${control} ${fieldError('url') ? 'border-red-400' : 'border-slate-300'}`}
        />
        <FieldError id={described('url')} message={fieldError('url')} />
      </div>
      <div>
        <label htmlFor={`${id}-description`} className="block text-sm font-medium text-slate-700">
          Description <span className="font-normal text-slate-500">(optional)</span>
        </label>
        <input
          id={`${id}-description`}
          name="description"
          placeholder="What this endpoint is for"
          value={draft.description}
          onChange={(e) => setDraft({ ...draft, description: e.target.value })}
          aria-invalid={!!fieldError('description')}
          aria-describedby={described('description')}
          className={`${control} ${fieldError('description') ? 'border-red-400' : 'border-slate-300'}`}
        />
        <FieldError id={described('description')} message={fieldError('description')} />
      </div>
      <fieldset className="text-sm" aria-describedby={described('events')}>
        <legend className="font-medium text-slate-700">Events (none selected means all)</legend>
        <div className="mt-2 grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {eventTypes.map((t) => (
            <label key={t} className="flex min-w-0 items-center gap-2 text-slate-600">
              <input
                type="checkbox"
                checked={draft.events.includes(t)}
                onChange={(e) => setDraft({ ...draft, events: e.target.checked ? [...draft.events, t] : draft.events.filter((x) => x !== t) })}
              />
              <span className="break-all font-mono text-xs">{t}</span>
            </label>
          ))}
        </div>
        <FieldError id={described('events')} message={fieldError('events')} />
      </fieldset>
      {general && <QueryError error={error} />}
      <FormActions submitLabel={submitLabel} busy={busy} busyLabel={busyLabel} onCancel={onCancel} />
    </form>
  );
}

function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" data-testid="field-error" className="mt-1 break-words text-sm text-red-700">
      {message}
    </p>
  );
}
